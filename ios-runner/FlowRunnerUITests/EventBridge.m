#import "EventBridge.h"

#import <CoreGraphics/CoreGraphics.h>
#import <objc/message.h>
#import <objc/runtime.h>

static NSString *const FlowBridgeDomain = @"dev.flow.runner.EventBridge";

static NSError *FlowBridgeError(NSString *message) {
    return [NSError errorWithDomain:FlowBridgeDomain code:1 userInfo:@{NSLocalizedDescriptionKey: message}];
}

static BOOL FlowFail(NSError **error, NSString *message) {
    if (error) {
        *error = FlowBridgeError(message);
    }
    return NO;
}

// The private API, by name: XCTest's headers do not declare it, and its
// shape has held since Xcode 10 (agent-device and Maestro call the same).
static NSString *const RecordClass = @"XCSynthesizedEventRecord";
static NSString *const PathClass = @"XCPointerEventPath";

static SEL InitRecord(void) { return NSSelectorFromString(@"initWithName:interfaceOrientation:"); }
static SEL InitTouch(void) { return NSSelectorFromString(@"initForTouchAtPoint:offset:"); }
static SEL MoveTo(void) { return NSSelectorFromString(@"moveToPoint:atOffset:"); }
static SEL LiftUp(void) { return NSSelectorFromString(@"liftUpAtOffset:"); }
static SEL AddPath(void) { return NSSelectorFromString(@"addPointerEventPath:"); }
static SEL Synthesize(void) { return NSSelectorFromString(@"synthesizeWithError:"); }

static NSString *FlowMissingPart(void) {
    Class record = NSClassFromString(RecordClass);
    Class path = NSClassFromString(PathClass);
    if (record == Nil) {
        return RecordClass;
    }
    if (path == Nil) {
        return PathClass;
    }
    SEL recordSelectors[] = {InitRecord(), AddPath(), Synthesize()};
    for (size_t i = 0; i < sizeof(recordSelectors) / sizeof(recordSelectors[0]); i++) {
        if (![record instancesRespondToSelector:recordSelectors[i]]) {
            return [NSString stringWithFormat:@"-[%@ %@]", RecordClass, NSStringFromSelector(recordSelectors[i])];
        }
    }
    SEL pathSelectors[] = {InitTouch(), MoveTo(), LiftUp()};
    for (size_t i = 0; i < sizeof(pathSelectors) / sizeof(pathSelectors[0]); i++) {
        if (![path instancesRespondToSelector:pathSelectors[i]]) {
            return [NSString stringWithFormat:@"-[%@ %@]", PathClass, NSStringFromSelector(pathSelectors[i])];
        }
    }
    return nil;
}

BOOL FlowEventBridgeAvailable(void) {
    return FlowMissingPart() == nil;
}

BOOL FlowPerformEventRecord(NSString *name, NSInteger interfaceOrientation,
                            NSArray<NSArray<NSDictionary<NSString *, id> *> *> *paths, NSError **error) {
    NSString *missing = FlowMissingPart();
    if (missing != nil) {
        return FlowFail(error, [NSString stringWithFormat:@"this XCTest has no %@, which synthesized gestures need", missing]);
    }
    Class recordClass = NSClassFromString(RecordClass);
    Class pathClass = NSClassFromString(PathClass);
    id record = ((id (*)(id, SEL, NSString *, NSInteger))objc_msgSend)([recordClass alloc], InitRecord(), name,
                                                                       interfaceOrientation);
    if (record == nil) {
        return FlowFail(error, @"XCSynthesizedEventRecord could not be created");
    }
    for (NSArray<NSDictionary<NSString *, id> *> *events in paths) {
        id path = nil;
        for (NSDictionary<NSString *, id> *event in events) {
            NSString *type = event[@"type"];
            double offset = [event[@"offset"] doubleValue];
            CGPoint point = CGPointMake([event[@"x"] doubleValue], [event[@"y"] doubleValue]);
            if ([type isEqualToString:@"touch"]) {
                if (path != nil) {
                    return FlowFail(error, @"a finger's path touches down twice");
                }
                path = ((id (*)(id, SEL, CGPoint, double))objc_msgSend)([pathClass alloc], InitTouch(), point, offset);
            } else if (path == nil) {
                return FlowFail(error, @"a finger's path must start with a touch");
            } else if ([type isEqualToString:@"move"]) {
                ((void (*)(id, SEL, CGPoint, double))objc_msgSend)(path, MoveTo(), point, offset);
            } else if ([type isEqualToString:@"lift"]) {
                ((void (*)(id, SEL, double))objc_msgSend)(path, LiftUp(), offset);
            } else {
                return FlowFail(error, [NSString stringWithFormat:@"unknown path event %@", type]);
            }
        }
        if (path == nil) {
            return FlowFail(error, @"a finger has no events");
        }
        ((void (*)(id, SEL, id))objc_msgSend)(record, AddPath(), path);
    }
    NSError *synthError = nil;
    BOOL ok = ((BOOL (*)(id, SEL, NSError **))objc_msgSend)(record, Synthesize(), &synthError);
    if (!ok) {
        NSString *why = synthError.localizedDescription ?: @"no reason given";
        return FlowFail(error, [NSString stringWithFormat:@"XCTest refused the synthesized %@: %@", name, why]);
    }
    return YES;
}
