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
// instancesRespondToSelector: before any is sent. The shape has held since
// Xcode 10; agent-device and Maestro use the same calls.
@protocol FlowSynthesizedEventRecord <NSObject>
- (instancetype)initWithName:(NSString *)name interfaceOrientation:(NSInteger)orientation;
- (void)addPointerEventPath:(id)path;
- (BOOL)synthesizeWithError:(NSError **)error;
@end

@protocol FlowPointerEventPath <NSObject>
- (instancetype)initForTouchAtPoint:(CGPoint)point offset:(double)offset;
- (void)moveToPoint:(CGPoint)point atOffset:(double)offset;
- (void)liftUpAtOffset:(double)offset;
@end

static NSString *const RecordClassName = @"XCSynthesizedEventRecord";
static NSString *const PathClassName = @"XCPointerEventPath";

/// The first class or selector this XCTest lacks, nil when it has them all.
static NSString *FlowMissingPart(void) {
    Class record = NSClassFromString(RecordClassName);
    if (record == Nil) {
        return RecordClassName;
    }
    Class path = NSClassFromString(PathClassName);
    if (path == Nil) {
        return PathClassName;
    }
    NSArray<NSString *> *recordSelectors = @[@"initWithName:interfaceOrientation:", @"addPointerEventPath:", @"synthesizeWithError:"];
    for (NSString *name in recordSelectors) {
        if (![record instancesRespondToSelector:NSSelectorFromString(name)]) {
            return [NSString stringWithFormat:@"-[%@ %@]", RecordClassName, name];
        }
    }
    NSArray<NSString *> *pathSelectors = @[@"initForTouchAtPoint:offset:", @"moveToPoint:atOffset:", @"liftUpAtOffset:"];
    for (NSString *name in pathSelectors) {
        if (![path instancesRespondToSelector:NSSelectorFromString(name)]) {
            return [NSString stringWithFormat:@"-[%@ %@]", PathClassName, name];
        }
    }
    return nil;
}

BOOL FlowEventBridgeAvailable(void) {
    return FlowMissingPart() == nil;
}

static BOOL FlowNumber(NSDictionary<NSString *, id> *event, NSString *key, double *out) {
    id value = event[key];
    if (![value isKindOfClass:[NSNumber class]]) {
        return NO;
    }
    *out = [(NSNumber *)value doubleValue];
    return YES;
}

BOOL FlowPerformEventRecord(NSString *name, NSInteger interfaceOrientation,
                            NSArray<NSArray<NSDictionary<NSString *, id> *> *> *paths, NSError **error) {
    NSString *missing = FlowMissingPart();
    if (missing != nil) {
        return FlowFail(error, [NSString stringWithFormat:@"this XCTest has no %@, which synthesized touches need", missing]);
    }
    Class recordClass = NSClassFromString(RecordClassName);
    Class pathClass = NSClassFromString(PathClassName);

    id<FlowSynthesizedEventRecord> record =
        [(id<FlowSynthesizedEventRecord>)[recordClass alloc] initWithName:name interfaceOrientation:interfaceOrientation];
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
    NSError *synthError = nil;
    if (![record synthesizeWithError:&synthError]) {
        NSString *why = synthError.localizedDescription ?: @"no reason given";
        return FlowFail(error, [NSString stringWithFormat:@"XCTest refused the synthesized %@: %@", name, why]);
    }
    return YES;
}
