#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

/// Performs one synthesized event record through XCTest's private event
/// API (XCSynthesizedEventRecord, XCPointerEventPath), resolved at run time
/// so that an Xcode without them is an error, not a crash.
///
/// paths holds one array per finger of events, each a dictionary with
/// "type" (@"touch", @"move" or @"lift"), "offset" (seconds from the
/// record's start) and, but for a lift, "x" and "y" in native portrait
/// points (FlowRunnerCore's EventRecord.bridgePaths). targetProcessID is
/// the pid of the app the record is for, set on the record when this XCTest
/// takes one (agent-device refuses to synthesize without it); 0 when
/// unknown. Returns NO and sets error when a class or selector is missing,
/// a path is malformed, XCTest refuses the record, or raises.
BOOL FlowPerformEventRecord(NSString *name, NSInteger interfaceOrientation,
                            NSArray<NSArray<NSDictionary<NSString *, id> *> *> *paths,
                            NSInteger targetProcessID,
                            NSError *_Nullable *_Nullable error);

/// Whether this XCTest has every class and selector touches need.
BOOL FlowEventBridgeAvailable(void);

/// Types text as one synthesized text record, as Maestro and
/// WebDriverAgent do (XCPointerEventPath initForTextInput, then
/// typeText:atOffset:typingSpeed:[shouldRedact:]): into whatever has the
/// keyboard focus, without XCUIElement.typeText's focus checks and idle
/// waits. Same errors as FlowPerformEventRecord.
BOOL FlowTypeText(NSString *text, NSUInteger typingSpeed, NSInteger targetProcessID,
                  NSError *_Nullable *_Nullable error);

/// Whether this XCTest has what FlowTypeText needs.
BOOL FlowTextBridgeAvailable(void);

NS_ASSUME_NONNULL_END
