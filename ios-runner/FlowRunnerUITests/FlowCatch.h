#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

/// The error domain of a caught Objective-C exception; userInfo holds the
/// exception's name under FlowExceptionNameKey and its reason under
/// FlowExceptionReasonKey.
extern NSString *const FlowExceptionDomain;
extern NSString *const FlowExceptionNameKey;
extern NSString *const FlowExceptionReasonKey;

/// Runs block inside @try/@catch. Swift cannot catch an NSException, and
/// one raised by XCTest's private classes would otherwise abort the runner
/// (review R2): returns NO and sets error when block raised.
///
/// Swift frames the exception unwinds through release nothing on the way;
/// a leak per exception is the price of a runner that keeps serving, as in
/// Maestro's and agent-device's runners, which catch the same way.
BOOL FlowTry(NS_NOESCAPE void (^block)(void), NSError *_Nullable *_Nullable error);

NS_ASSUME_NONNULL_END
