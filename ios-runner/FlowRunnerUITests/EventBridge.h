#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

/// Performs one synthesized event record through XCTest's private event
/// API (XCSynthesizedEventRecord, XCPointerEventPath), resolved at run time
/// so that an Xcode without them is an error, not a crash.
///
/// paths holds one array per finger of events, each a dictionary with
/// "type" (@"touch", @"move" or @"lift"), "offset" (seconds from the
/// record's start) and, but for a lift, "x" and "y" in native portrait
/// points. Returns NO and sets error when a class or selector is missing,
/// a path is malformed, or XCTest refuses the record.
BOOL FlowPerformEventRecord(NSString *name, NSInteger interfaceOrientation,
                            NSArray<NSArray<NSDictionary<NSString *, id> *> *> *paths,
                            NSError *_Nullable *_Nullable error);

/// Whether this XCTest has every class and selector the bridge needs.
BOOL FlowEventBridgeAvailable(void);

NS_ASSUME_NONNULL_END
