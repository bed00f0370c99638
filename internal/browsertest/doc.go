// Package browsertest is what the tests that drive a real browser share:
// the rule for a missing browser (skip with the reason, or fail when
// FLOW_REQUIRE_BROWSER=1, as CI sets it) and a machine-wide lock so that
// two test binaries never run browsers at the same time.
//
// go test runs packages in parallel. On a two-core machine, a shard test
// starting two browsers beside the gesture-timing tests starves the
// latter's frames, and what those tests then measure is the test suite,
// not the device. Only tests import this package.
package browsertest
