// Package appium drives phones through Appium native sessions: a local
// Appium server, a Selenium Grid with Appium nodes, or a device farm
// (BrowserStack, Sauce Labs, LambdaTest, AWS Device Farm). The W3C client
// is exec/webdriver's; this package adds what a native session is:
//
//   - the screen is the page source, UiAutomator2's or XCUITest's XML,
//     read into exec.Node trees with bounds as Maestro reads them;
//   - every touch, planned gestures included, is one W3C pointer action
//     sequence (the §7 lowering, which both drivers interpolate);
//   - device commands are Appium's `mobile:` extensions; what a driver
//     lacks is UNSUPPORTED_OPERATION naming the extension;
//   - setOrientation is setRotation with each driver's z (orientation.go),
//     on the route the driver answers, or a warned PORTRAIT/LANDSCAPE.
//
// Nothing of flow's is installed on the phone.
package appium
