#import "FlowCatch.h"

NSString *const FlowExceptionDomain = @"dev.flow.runner.ObjCException";
NSString *const FlowExceptionNameKey = @"name";
NSString *const FlowExceptionReasonKey = @"reason";

BOOL FlowTry(NS_NOESCAPE void (^block)(void), NSError **error) {
    @try {
        block();
        return YES;
    } @catch (NSException *exception) {
        if (error) {
            NSString *name = exception.name ?: @"NSException";
            NSString *reason = exception.reason ?: @"no reason given";
            *error = [NSError errorWithDomain:FlowExceptionDomain
                                         code:1
                                     userInfo:@{
                                         NSLocalizedDescriptionKey : [NSString stringWithFormat:@"%@: %@", name, reason],
                                         FlowExceptionNameKey : name,
                                         FlowExceptionReasonKey : reason,
                                     }];
        }
        return NO;
    }
}
