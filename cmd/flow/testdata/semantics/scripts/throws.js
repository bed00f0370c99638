output.before = 'set'
nope.call()
