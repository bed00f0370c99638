#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

/// XCTest's accessibility client (XCAXClient_iOS, reached through
/// XCUIDevice's private accessibilityInterface), used where XCUITest's
/// public API has no answer. Every class and selector is checked before
/// use; an absent one is an error, an exception is caught.

/// The apps the accessibility client calls active: dictionaries with "pid"
/// (NSNumber) and "bundleId" (NSString), SpringBoard included. nil and
/// error when this XCTest cannot tell.
NSArray<NSDictionary<NSString *, id> *> *_Nullable FlowActiveApplications(NSError *_Nullable *_Nullable error);

/// Caps the depth of every following snapshot at the accessibility client,
/// before it serializes the tree (Maestro's AXClientSwizzler and
/// WebDriverAgent's FBSnapshotReqParams set the "maxDepth" of
/// -[XCAXClient_iOS defaultParameters] the same way): deep React Native and
/// SwiftUI trees then come back trimmed instead of failing with
/// kAXErrorIllegalArgument. 0 removes the cap. NO and error when this
/// XCTest has no such parameters.
BOOL FlowCapSnapshotDepth(NSInteger maxDepth, NSError *_Nullable *_Nullable error);

/// Sets how long the accessibility client waits for an app's answer (a
/// snapshot included), in seconds, and gives the value it replaces in
/// previous. NO and error when this XCTest cannot set it.
BOOL FlowSetSnapshotTimeout(double seconds, double *_Nullable previous, NSError *_Nullable *_Nullable error);

/// An application's pid (XCUIApplication's private processID), 0 when
/// unknown.
NSInteger FlowProcessID(id application);

NS_ASSUME_NONNULL_END
