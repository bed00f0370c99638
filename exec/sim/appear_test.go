package sim_test

import (
	"testing"
	"time"
)

func TestAppearAfterMsFollowsVirtualClock(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://cart")
	r.tap("checkout_button")
	r.tap("place_order")
	if !r.has("confirmation_title") || r.has("order_number") {
		t.Fatal("the order number is not there when the screen opens")
	}
	r.must(r.clock.Sleep(r.ctx, 2499*time.Millisecond))
	if r.has("order_number") {
		t.Fatal("2499 ms after entering: still processing")
	}
	r.must(r.clock.Sleep(r.ctx, time.Millisecond))
	if !r.has("order_number") {
		t.Fatal("2500 ms after entering, the order number shows")
	}
	// Going forward and back again does not restart the delay: the screen
	// was entered once.
	r.tap("continue_shopping")
	r.must(r.dev.Back(r.ctx))
	if !r.has("order_number") {
		t.Fatal("back to the confirmation: still shown")
	}
	// Entering it anew does.
	r.must(r.dev.Back(r.ctx))
	r.tap("place_order")
	if r.has("order_number") {
		t.Fatal("a new confirmation screen waits again")
	}
}
