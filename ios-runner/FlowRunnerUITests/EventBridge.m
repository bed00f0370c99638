#import "EventBridge.h"

#import <CoreGraphics/CoreGraphics.h>

static NSString *const FlowBridgeDomain = @"dev.flow.runner.EventBridge";

static BOOL FlowFail(NSError **error, NSString *message) {
    if (error) {
        *error = [NSError errorWithDomain:FlowBridgeDomain code:1 userInfo:@{NSLocalizedDescriptionKey: message}];
    }
    return NO;
}

// XCTest's private event API, declared here by shape only. No class adopts
// these protocols: they exist so that messages to the objects found at run
// time compile with the right argument types and, the init methods being in
// the init family by name, with the right ARC ownership (a cast
// objc_msgSend would get neither checked). Every selector is checked with
// instancesRespondToSelector: before it is sent. The shape has held since
// Xcode 10 (text input since 10.2, shouldRedact: since 12); agent-device,
// Maestro and WebDriverAgent use the same calls.
@protocol FlowSynthesizedEventRecord <NSObject>
- (instancetype)initWithName:(NSString *)name interfaceOrientation:(NSInteger)orientation;
- (void)addPointerEventPath:(id)path;
// A pid_t on the record; NSInteger, so that the whole register is set
// whichever width XCTest reads.
- (void)setTargetProcessID:(NSInteger)pid;
- (BOOL)synthesizeWithError:(NSError **)error;
@end

@protocol FlowPointerEventPath <NSObject>
- (instancetype)initForTouchAtPoint:(CGPoint)point offset:(double)offset;
- (instancetype)initForTextInput;
- (void)moveToPoint:(CGPoint)point atOffset:(double)offset;
- (void)liftUpAtOffset:(double)offset;
- (void)typeText:(NSString *)text atOffset:(double)offset typingSpeed:(NSUInteger)speed;
- (void)typeText:(NSString *)text atOffset:(double)offset typingSpeed:(NSUInteger)speed shouldRedact:(BOOL)redact;
@end

static NSString *const RecordClassName = @"XCSynthesizedEventRecord";
static NSString *const PathClassName = @"XCPointerEventPath";

/// The first class or selector of names this XCTest lacks, nil when it has
/// them all. recordSelectors are the record's, pathSelectors the path's.
static NSString *FlowMissing(NSArray<NSString *> *recordSelectors, NSArray<NSString *> *pathSelectors) {
    Class record = NSClassFromString(RecordClassName);
    if (record == Nil) {
        return RecordClassName;
    }
    Class path = NSClassFromString(PathClassName);
    if (path == Nil) {
        return PathClassName;
    }
    for (NSString *name in recordSelectors) {
        if (![record instancesRespondToSelector:NSSelectorFromString(name)]) {
            return [NSString stringWithFormat:@"-[%@ %@]", RecordClassName, name];
        }
    }
    for (NSString *name in pathSelectors) {
        if (![path instancesRespondToSelector:NSSelectorFromString(name)]) {
            return [NSString stringWithFormat:@"-[%@ %@]", PathClassName, name];
        }
    }
    return nil;
}

static NSArray<NSString *> *FlowRecordSelectors(void) {
    return @[@"initWithName:interfaceOrientation:", @"addPointerEventPath:", @"synthesizeWithError:"];
}

static NSString *FlowMissingTouchPart(void) {
    return FlowMissing(FlowRecordSelectors(), @[@"initForTouchAtPoint:offset:", @"moveToPoint:atOffset:", @"liftUpAtOffset:"]);
}

static BOOL FlowHasRedactingTypeText(void) {
    Class path = NSClassFromString(PathClassName);
    return path != Nil && [path instancesRespondToSelector:NSSelectorFromString(@"typeText:atOffset:typingSpeed:shouldRedact:")];
}

static NSString *FlowMissingTextPart(void) {
    NSString *missing = FlowMissing(FlowRecordSelectors(), @[@"initForTextInput"]);
    if (missing != nil) {
        return missing;
    }
    Class path = NSClassFromString(PathClassName);
    if (!FlowHasRedactingTypeText() && ![path instancesRespondToSelector:NSSelectorFromString(@"typeText:atOffset:typingSpeed:")]) {
        return [NSString stringWithFormat:@"-[%@ typeText:atOffset:typingSpeed:]", PathClassName];
    }
    return nil;
}

BOOL FlowEventBridgeAvailable(void) {
    return FlowMissingTouchPart() == nil;
}

BOOL FlowTextBridgeAvailable(void) {
    return FlowMissingTextPart() == nil;
}

static BOOL FlowNumber(NSDictionary<NSString *, id> *event, NSString *key, double *out) {
    id value = event[key];
    if (![value isKindOfClass:[NSNumber class]]) {
        return NO;
    }
    *out = [(NSNumber *)value doubleValue];
    return YES;
}

/// A new record, with the target pid set when given and settable.
static id<FlowSynthesizedEventRecord> FlowNewRecord(NSString *name, NSInteger interfaceOrientation, NSInteger targetProcessID) {
    Class recordClass = NSClassFromString(RecordClassName);
    id<FlowSynthesizedEventRecord> record =
        [(id<FlowSynthesizedEventRecord>)[recordClass alloc] initWithName:name interfaceOrientation:interfaceOrientation];
    if (record != nil && targetProcessID > 0 && [record respondsToSelector:@selector(setTargetProcessID:)]) {
        [record setTargetProcessID:targetProcessID];
    }
    return record;
}

static BOOL FlowSynthesize(id<FlowSynthesizedEventRecord> record, NSString *name, NSError **error) {
    NSError *synthError = nil;
    if (![record synthesizeWithError:&synthError]) {
        NSString *why = synthError.localizedDescription ?: @"no reason given";
        return FlowFail(error, [NSString stringWithFormat:@"XCTest refused the synthesized %@: %@", name, why]);
    }
    return YES;
}

static BOOL FlowPerform(NSString *name, NSInteger interfaceOrientation,
                        NSArray<NSArray<NSDictionary<NSString *, id> *> *> *paths, NSInteger targetProcessID, NSError **error) {
    NSString *missing = FlowMissingTouchPart();
    if (missing != nil) {
        return FlowFail(error, [NSString stringWithFormat:@"this XCTest has no %@, which synthesized touches need", missing]);
    }
    Class pathClass = NSClassFromString(PathClassName);
    id<FlowSynthesizedEventRecord> record = FlowNewRecord(name, interfaceOrientation, targetProcessID);
    if (record == nil) {
        return FlowFail(error, @"XCSynthesizedEventRecord could not be created");
    }
    for (NSArray<NSDictionary<NSString *, id> *> *events in paths) {
        id<FlowPointerEventPath> path = nil;
        for (NSDictionary<NSString *, id> *event in events) {
            NSString *type = event[@"type"];
            double offset = 0;
            if (![type isKindOfClass:[NSString class]] || !FlowNumber(event, @"offset", &offset)) {
                return FlowFail(error, @"a path event needs a type and an offset");
            }
            if ([type isEqualToString:@"lift"]) {
                if (path == nil) {
                    return FlowFail(error, @"a finger's path must start with a touch");
                }
                [path liftUpAtOffset:offset];
                continue;
            }
            double x = 0, y = 0;
            if (!FlowNumber(event, @"x", &x) || !FlowNumber(event, @"y", &y)) {
                return FlowFail(error, [NSString stringWithFormat:@"a %@ event needs x and y", type]);
            }
            CGPoint point = CGPointMake(x, y);
            if ([type isEqualToString:@"touch"]) {
                if (path != nil) {
                    return FlowFail(error, @"a finger's path touches down twice");
                }
                path = [(id<FlowPointerEventPath>)[pathClass alloc] initForTouchAtPoint:point offset:offset];
                if (path == nil) {
                    return FlowFail(error, @"XCPointerEventPath could not be created");
                }
            } else if ([type isEqualToString:@"move"]) {
                if (path == nil) {
                    return FlowFail(error, @"a finger's path must start with a touch");
                }
                [path moveToPoint:point atOffset:offset];
            } else {
                return FlowFail(error, [NSString stringWithFormat:@"unknown path event %@", type]);
            }
        }
        if (path == nil) {
            return FlowFail(error, @"a finger has no events");
        }
        [record addPointerEventPath:path];
    }
    return FlowSynthesize(record, name, error);
}

static BOOL FlowCaught(NSException *exception, NSString *what, NSError **error) {
    return FlowFail(error, [NSString stringWithFormat:@"XCTest raised %@ while synthesizing %@: %@",
                                                      exception.name ?: @"NSException", what, exception.reason ?: @"no reason given"]);
}

BOOL FlowPerformEventRecord(NSString *name, NSInteger interfaceOrientation,
                            NSArray<NSArray<NSDictionary<NSString *, id> *> *> *paths, NSInteger targetProcessID, NSError **error) {
    // Per synthesis as well as per command (FlowCatch): an exception here
    // is this record's failure, answered as COMMAND_FAILED.
    @try {
        return FlowPerform(name, interfaceOrientation, paths, targetProcessID, error);
    } @catch (NSException *exception) {
        return FlowCaught(exception, name, error);
    }
}

// Maestro's text records: named as its runner names them, created upright
// (text has no points to turn).
static NSString *const TextRecordName = @"flow-text";
static const NSInteger TextRecordOrientation = 1; // UIInterfaceOrientationPortrait

BOOL FlowTypeText(NSString *text, NSUInteger typingSpeed, NSInteger targetProcessID, NSError **error) {
    @try {
        NSString *missing = FlowMissingTextPart();
        if (missing != nil) {
            return FlowFail(error, [NSString stringWithFormat:@"this XCTest has no %@, which synthesized text needs", missing]);
        }
        Class pathClass = NSClassFromString(PathClassName);
        id<FlowPointerEventPath> path = [(id<FlowPointerEventPath>)[pathClass alloc] initForTextInput];
        if (path == nil) {
            return FlowFail(error, @"XCPointerEventPath could not be created for text");
        }
        if (FlowHasRedactingTypeText()) {
            [path typeText:text atOffset:0 typingSpeed:typingSpeed shouldRedact:NO];
        } else {
            [path typeText:text atOffset:0 typingSpeed:typingSpeed];
        }
        id<FlowSynthesizedEventRecord> record = FlowNewRecord(TextRecordName, TextRecordOrientation, targetProcessID);
        if (record == nil) {
            return FlowFail(error, @"XCSynthesizedEventRecord could not be created");
        }
        [record addPointerEventPath:path];
        return FlowSynthesize(record, TextRecordName, error);
    } @catch (NSException *exception) {
        return FlowCaught(exception, TextRecordName, error);
    }
}
