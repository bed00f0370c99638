package main

import (
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/planner"
)

// lowerPlan returns the transport payload a platform adapter would send for
// a plan: the Android helper payload, the iOS runner request, or the W3C
// actions body.
func lowerPlan(target string, p planner.Plan, appID string) (any, error) {
	switch target {
	case "android":
		return android.Lower(p)
	case "ios":
		return ios.LowerRequest(p, appID)
	case "webdriver":
		return webdriver.LowerActions(p, webdriver.Options{})
	}
	return nil, canonical.Errorf(canonical.CodeInvalidArgs, "unknown --lower target %q", target).
		WithHint("use --lower android, --lower ios or --lower webdriver")
}
