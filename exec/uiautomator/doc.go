// Package uiautomator reads UIAutomator view-hierarchy dumps into exec.Node
// trees, the way Maestro's AndroidDriver.mapHierarchy reads its own dump.
//
// Two writers of the format reach flow, and one parser reads both:
//
//   - Maestro's ViewHierarchy.kt (mobile-dev-inc/maestro,
//     maestro-android/src/androidTest/java/dev/mobile/maestro/ViewHierarchy.kt),
//     which flow's Android helper follows: every element is <node>, the
//     placeholder is hintText, and invisible nodes are never written.
//   - The Appium UiAutomator2 server (appium/appium-uiautomator2-server,
//     app/src/main/java/io/appium/uiautomator2/core/AccessibilityNodeInfoDumper.java):
//     elements are named by their class, the root says class="hierarchy"
//     and carries the display size, the placeholder is hint, and a node the
//     user cannot see may be written with displayed="false".
//
// The parser goes by attribute meaning, not by writer: an attribute one
// writer never emits changes nothing for it. Only the error hint differs
// between callers, because only the caller knows what wrote the document
// and what the user can do about it ([Options]).
//
// uiautomator may import canonical and exec. It is pure: no I/O, no clock,
// no package state. It must never import a device adapter; the adapters
// import it.
package uiautomator
