// Runs only on Android (see the when: in cart-math.yaml); notes how "back" works there.
output.platform = maestro.platform;
output.backGesture = maestro.platform == 'android' ? 'system back key' : 'edge swipe';
console.log('back on ' + output.platform + ' is a ' + output.backGesture);
