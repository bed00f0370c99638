// Exposes the Objective-C event bridge to the runner's Swift.
#import "EventBridge.h"
