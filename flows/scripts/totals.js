// Subtotal and discounted total, in cents, for output.cart.
// Reads DISCOUNT_PERCENT (runScript env) and CURRENCY (flow header env).
var subtotal = 0;
for (var i = 0; i < output.cart.items.length; i++) {
  var item = output.cart.items[i];
  subtotal += item.priceCents * item.qty;
}

var percent = parseInt(DISCOUNT_PERCENT, 10);
output.totals = {
  currency: CURRENCY,
  percent: percent,
  subtotalCents: subtotal,
  discountedCents: Math.round(subtotal * (100 - percent) / 100)
};
