// Seeds output.cart from a JSON fixture, the way a test would read an API response.
var fixture = '{"currency": "USD", "items": [' +
  '{"sku": "TRS-42", "name": "Trail Running Shoes", "priceCents": 8900, "qty": 1}]}';

output.cart = json(fixture);
console.log('seeded ' + output.cart.items.length + ' item(s)');
