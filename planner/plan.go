package planner

import "github.com/flow-runner/flow/canonical"

// Topology is the contact count of a plan.
type Topology string

// Plan topologies.
const (
	Single Topology = "single"
	Two    Topology = "two"
)

// Sample is one point of one pointer at an integer millisecond offset from
// pointer-down.
type Sample struct {
	OffsetMs int             `json:"offsetMs"`
	Point    canonical.Point `json:"point"`
}

// Pointer is one contact's complete trajectory.
type Pointer struct {
	PointerID int      `json:"pointerId"`
	Samples   []Sample `json:"samples"`
}

// Plan is the canonical gesture plan of contracts §4. One-contact plans carry
// only their endpoint samples (two; three or four for a drag with holds);
// two-contact plans carry every synchronized frame.
type Plan struct {
	Topology         Topology                   `json:"topology"`
	Intent           canonical.Intent           `json:"intent"`
	ExecutionProfile canonical.ExecutionProfile `json:"executionProfile,omitempty"`
	DurationMs       int                        `json:"durationMs"`
	Viewport         canonical.Viewport         `json:"viewport"`
	Pointers         []Pointer                  `json:"pointers"`
}

// Start is the first sample's point of pointer 0.
func (p Plan) Start() canonical.Point { return p.Pointers[0].Samples[0].Point }

// End is the last sample's point of pointer 0.
func (p Plan) End() canonical.Point {
	s := p.Pointers[0].Samples
	return s[len(s)-1].Point
}

// Centroids are the average positions of all pointers at the first and last
// sample, what a response reports as from and to.
func (p Plan) Centroids() (from, to canonical.Point) {
	n := float64(len(p.Pointers))
	for _, ptr := range p.Pointers {
		first, last := ptr.Samples[0].Point, ptr.Samples[len(ptr.Samples)-1].Point
		from.X += first.X / n
		from.Y += first.Y / n
		to.X += last.X / n
		to.Y += last.Y / n
	}
	return from, to
}

// Platform selects a planning profile. Android rounds the frame count and
// pinches horizontally; every other platform truncates and starts at -90°.
type Platform string

// Planning platforms. The empty platform plans with the default profile.
const (
	Android   Platform = "android"
	IOS       Platform = "ios"
	MacOS     Platform = "macos"
	Web       Platform = "web"
	HarmonyOS Platform = "harmonyos"
	Vega      Platform = "vega"
	Linux     Platform = "linux"
)

// profile is a planning profile (ADR 0013): how many frames a two-contact
// trajectory has and where a pinch's contacts start.
type profile struct {
	roundFrames      bool
	pinchAxisDegrees float64
}

func profileFor(p Platform) (profile, error) {
	switch p {
	case Android:
		return profile{roundFrames: true, pinchAxisDegrees: 0}, nil
	case "", IOS, MacOS, Web, HarmonyOS, Vega, Linux:
		return profile{roundFrames: false, pinchAxisDegrees: -90}, nil
	}
	return profile{}, canonical.Errorf(canonical.CodeInvalidArgs, "unknown planning platform %q", string(p)).
		WithHint("use one of: android, ios, macos, web, harmonyos, vega, linux")
}

// ParsePlatform validates a platform name given by a user.
func ParsePlatform(s string) (Platform, error) {
	_, err := profileFor(Platform(s))
	return Platform(s), err
}
