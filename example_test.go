package flow_test

import (
	"context"
	"fmt"
	"log"

	"github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Plan a gesture from structured input, with no device: the plan flow plan
// prints for it.
func ExamplePlanGesture() {
	plan, err := flow.PlanGesture(map[string]any{"kind": "pinch", "scale": 0.5}, flow.PlanOptions{Platform: planner.IOS})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(plan.Intent, plan.Topology, plan.DurationMs, "ms,", len(plan.Pointers), "fingers")

	// A removed form is refused with the CLI's coded error and its rewrite.
	_, err = flow.PlanGesture(map[string]any{"kind": "fling", "direction": "up", "origin": map[string]any{"x": 200, "y": 600}, "durationMs": 300}, flow.PlanOptions{Platform: planner.Android})
	fmt.Println(canonical.CodeOf(err))
	// Output:
	// pinch two 300 ms, 2 fingers
	// INVALID_ARGS
}

// Log in to sim's demo shop and pinch, as an agent would through flow mcp.
func ExampleOpenSession() {
	ctx := context.Background()
	s, err := flow.OpenSession(ctx, flow.SessionOptions{Target: flow.Target{Device: "sim"}})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close(ctx)
	for _, step := range []func() (flow.Outcome, error){
		func() (flow.Outcome, error) { return s.Launch(ctx, "com.example.shop") },
		func() (flow.Outcome, error) { return s.Press(ctx, `text="Log in"`) },
		func() (flow.Outcome, error) { return s.Fill(ctx, "id=email", "ada@example.com") },
		func() (flow.Outcome, error) { return s.Fill(ctx, "text=Password", "correct-horse") },
		func() (flow.Outcome, error) { return s.Press(ctx, "text=Submit") },
		func() (flow.Outcome, error) { return s.Is(ctx, "visible", "text=Catalog") },
	} {
		if _, err := step(); err != nil {
			log.Fatal(err)
		}
	}
	out, err := s.Gesture(ctx, map[string]any{"kind": "pinch", "scale": 0.5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("pinched with", len(out.Plans[0].Pointers), "fingers in", out.Plans[0].DurationMs, "ms")

	// A failed action is a coded error.
	_, err = s.Press(ctx, `text="No such button"`)
	fmt.Println(canonical.CodeOf(err))
	// Output:
	// pinched with 2 fingers in 300 ms
	// ELEMENT_NOT_FOUND
}

// Check flows without a device, as flow check does.
func ExampleCheck() {
	res, err := flow.Check(context.Background(), []string{"flows/demo"}, flow.CheckOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Files, "files,", len(res.Problems), "problems")

	// A coordinate gesture that cannot fit an iPhone is found before any device.
	res, _ = flow.Check(context.Background(), []string{"flows/invalid"}, flow.CheckOptions{Platform: planner.IOS})
	for _, p := range res.Problems {
		if p.Details["reason"] == "GESTURE_TRAJECTORY_OUT_OF_BOUNDS" {
			fmt.Println(p.Pos.File, p.Code)
			break
		}
	}
	// Output:
	// 6 files, 0 problems
	// flows/invalid/swipe-off-screen.yaml INVALID_ARGS
}

// Run flows as flow test does and read the report value.
func ExampleRun() {
	res, err := flow.Run(context.Background(), []string{"flows/demo"}, flow.RunOptions{Target: flow.Target{Device: "sim"}})
	if err != nil {
		log.Fatal(err)
	}
	t := res.Tally()
	fmt.Println(t.Passed, "passed,", t.Failed, "failed")
	for _, f := range res.Flows[:2] {
		fmt.Println(f.Name, f.Status)
	}
	// Output:
	// 5 passed, 0 failed
	// Launch the shop passed
	// Log in passed
}
