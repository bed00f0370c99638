package main

import (
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// lowerPlan returns the transport payload a platform adapter would send.
func lowerPlan(target string, p planner.Plan, appID string) (any, error) {
	return nil, canonical.Errorf(canonical.CodeUnsupportedOperation, "--lower %s is not wired yet", target)
}
