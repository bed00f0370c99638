// Exposes the runner's Objective-C to its Swift: the event bridge, the
// exception catcher and the accessibility client's private parts.
#import "EventBridge.h"
#import "FlowAX.h"
#import "FlowCatch.h"
