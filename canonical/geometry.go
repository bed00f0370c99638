package canonical

// Point is a position in device pixels (Android) or points (Apple, web).
// Coordinates are float64 because plans carry exact, unrounded geometry.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Add is p translated by d.
func (p Point) Add(d Point) Point { return Point{X: p.X + d.X, Y: p.Y + d.Y} }

// Viewport is the active app's interaction rectangle, read fresh from the
// device for every gesture (ADR 0013).
type Viewport struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Center is the middle of the viewport, the default origin of pinch and
// rotate.
func (v Viewport) Center() Point {
	return Point{X: v.X + v.Width/2, Y: v.Y + v.Height/2}
}
