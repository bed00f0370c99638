#import "FlowAX.h"

#import <XCTest/XCTest.h>
#import <objc/runtime.h>
#import <stdatomic.h>

static NSString *const FlowAXDomain = @"dev.flow.runner.AX";

static BOOL FlowAXFail(NSError **error, NSString *message) {
    if (error) {
        *error = [NSError errorWithDomain:FlowAXDomain code:1 userInfo:@{NSLocalizedDescriptionKey: message}];
    }
    return NO;
}

// The private shapes used here (WebDriverAgent's PrivateHeaders/XCTest:
// XCUIDevice.h, XCAXClient_iOS.h, XCAccessibilityElement.h,
// XCUIApplication.h), declared by shape only, as in EventBridge.m.
@protocol FlowAXDevice <NSObject>
- (id)accessibilityInterface;
@end

@protocol FlowAXClient <NSObject>
- (NSArray *)activeApplications;
- (id)applicationProcessTracker;
- (double)AXTimeout;
- (BOOL)_setAXTimeout:(double)timeout error:(NSError **)error;
@end

@protocol FlowAXElement <NSObject>
- (int)processIdentifier;
@end

@protocol FlowAXProcessTracker <NSObject>
- (id)monitoredApplicationWithProcessIdentifier:(int)pid;
@end

@protocol FlowAXApplicationClass <NSObject>
+ (id)applicationWithPID:(int)pid;
@end

@protocol FlowAXApplication <NSObject>
- (NSString *)bundleID;
- (int)processID;
@end

static NSString *FlowAXExceptionMessage(NSException *exception, NSString *what) {
    return [NSString stringWithFormat:@"XCTest raised %@ while %@: %@", exception.name ?: @"NSException", what,
                                      exception.reason ?: @"no reason given"];
}

/// XCUIDevice's accessibility client, nil with *why set when there is none.
static id<FlowAXClient> FlowAXClientOrNil(NSString **why) {
    id device = [XCUIDevice sharedDevice];
    if (![device respondsToSelector:@selector(accessibilityInterface)]) {
        *why = @"-[XCUIDevice accessibilityInterface] is missing";
        return nil;
    }
    id client = [(id<FlowAXDevice>)device accessibilityInterface];
    if (client == nil) {
        *why = @"XCUIDevice has no accessibility client";
    }
    return (id<FlowAXClient>)client;
}

/// The XCUIApplication of a pid: the process tracker's (today's XCTest,
/// as WebDriverAgent reads it), else +[XCUIApplication applicationWithPID:]
/// (older ones).
static id FlowApplicationOfPID(id<FlowAXClient> client, int pid) {
    if ([client respondsToSelector:@selector(applicationProcessTracker)]) {
        id tracker = [client applicationProcessTracker];
        if ([tracker respondsToSelector:@selector(monitoredApplicationWithProcessIdentifier:)]) {
            id app = [(id<FlowAXProcessTracker>)tracker monitoredApplicationWithProcessIdentifier:pid];
            if (app != nil) {
                return app;
            }
        }
    }
    Class<FlowAXApplicationClass> cls = (Class<FlowAXApplicationClass>)[XCUIApplication class];
    if ([(id)cls respondsToSelector:@selector(applicationWithPID:)]) {
        return [cls applicationWithPID:pid];
    }
    return nil;
}

NSArray<NSDictionary<NSString *, id> *> *FlowActiveApplications(NSError **error) {
    @try {
        NSString *why = nil;
        id<FlowAXClient> client = FlowAXClientOrNil(&why);
        if (client == nil) {
            FlowAXFail(error, why);
            return nil;
        }
        if (![client respondsToSelector:@selector(activeApplications)]) {
            FlowAXFail(error, @"-[XCAXClient_iOS activeApplications] is missing");
            return nil;
        }
        NSMutableArray<NSDictionary<NSString *, id> *> *out = [NSMutableArray array];
        for (id element in [client activeApplications]) {
            if (![element respondsToSelector:@selector(processIdentifier)]) {
                continue;
            }
            int pid = [(id<FlowAXElement>)element processIdentifier];
            if (pid <= 0) {
                continue;
            }
            id app = FlowApplicationOfPID(client, pid);
            if (app == nil || ![app respondsToSelector:@selector(bundleID)]) {
                continue;
            }
            NSString *bundle = [(id<FlowAXApplication>)app bundleID];
            if (![bundle isKindOfClass:[NSString class]] || bundle.length == 0) {
                continue;
            }
            [out addObject:@{@"pid": @(pid), @"bundleId": bundle}];
        }
        return out;
    } @catch (NSException *exception) {
        FlowAXFail(error, FlowAXExceptionMessage(exception, @"listing the running apps"));
        return nil;
    }
}

// The depth cap lives for the process, as the method it patches does: the
// replaced -defaultParameters reads it on whatever thread XCTest asks from.
static atomic_long FlowMaxDepth = 0;
static id (*FlowOriginalDefaultParameters)(id, SEL) = NULL;

static id FlowDefaultParameters(id self, SEL _cmd) {
    id base = FlowOriginalDefaultParameters != NULL ? FlowOriginalDefaultParameters(self, _cmd) : nil;
    long depth = atomic_load(&FlowMaxDepth);
    if (depth <= 0 || (base != nil && ![base isKindOfClass:[NSDictionary class]])) {
        return base;
    }
    NSMutableDictionary *out = base != nil ? [(NSDictionary *)base mutableCopy] : [NSMutableDictionary dictionary];
    out[@"maxDepth"] = @(depth);
    return [out copy];
}

BOOL FlowCapSnapshotDepth(NSInteger maxDepth, NSError **error) {
    static dispatch_once_t once;
    static NSString *failure = nil;
    dispatch_once(&once, ^{
        Class cls = NSClassFromString(@"XCAXClient_iOS");
        if (cls == Nil) {
            failure = @"this XCTest has no XCAXClient_iOS";
            return;
        }
        Method m = class_getInstanceMethod(cls, NSSelectorFromString(@"defaultParameters"));
        if (m == NULL) {
            failure = @"-[XCAXClient_iOS defaultParameters] is missing";
            return;
        }
        // The original is kept before the replacement is in place, so
        // that no caller ever finds the patch without it.
        FlowOriginalDefaultParameters = (id (*)(id, SEL))method_getImplementation(m);
        method_setImplementation(m, (IMP)FlowDefaultParameters);
    });
    if (failure != nil) {
        return FlowAXFail(error, [NSString stringWithFormat:@"the snapshot depth cannot be capped: %@", failure]);
    }
    atomic_store(&FlowMaxDepth, (long)MAX(maxDepth, 0));
    return YES;
}

BOOL FlowSetSnapshotTimeout(double seconds, double *previous, NSError **error) {
    @try {
        NSString *why = nil;
        id<FlowAXClient> client = FlowAXClientOrNil(&why);
        if (client == nil) {
            return FlowAXFail(error, why);
        }
        if (![client respondsToSelector:@selector(_setAXTimeout:error:)] || ![client respondsToSelector:@selector(AXTimeout)]) {
            return FlowAXFail(error, @"-[XCAXClient_iOS _setAXTimeout:error:] is missing");
        }
        if (previous) {
            *previous = [client AXTimeout];
        }
        return [client _setAXTimeout:seconds error:error];
    } @catch (NSException *exception) {
        return FlowAXFail(error, FlowAXExceptionMessage(exception, @"setting the accessibility timeout"));
    }
}

NSInteger FlowProcessID(id application) {
    @try {
        if (![application respondsToSelector:@selector(processID)]) {
            return 0;
        }
        return (NSInteger)[(id<FlowAXApplication>)application processID];
    } @catch (NSException *exception) {
        return 0;
    }
}
