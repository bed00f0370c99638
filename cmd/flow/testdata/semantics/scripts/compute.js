// Reads NAME from runScript env; writes output.message; logs.
output.message = NAME + '!'
var local = 'only here'
console.log('computed ' + output.message)
