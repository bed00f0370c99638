package canonical

// The canonical commands. Maestro spellings stay in the maestro package;
// these names describe what happens on the device.

// LaunchApp starts an app, by default stopping it first and granting every
// permission (Maestro §1.5).
type LaunchApp struct {
	Meta
	AppID         Template          `json:"appId"`
	ClearState    bool              `json:"clearState,omitempty"`
	ClearKeychain bool              `json:"clearKeychain,omitempty"`
	StopApp       bool              `json:"stopApp"`
	Permissions   map[string]string `json:"permissions"`
	Arguments     []LaunchArgument  `json:"arguments,omitempty"`
}

// LaunchArgument is one typed launch argument; string values are templates.
type LaunchArgument struct {
	Key   Template `json:"key"`
	Value any      `json:"value"` // bool, int64, float64 or Template
}

// StopApp stops (or, with Kill, kills) an app.
type StopApp struct {
	Meta
	AppID Template `json:"appId"`
	Kill  bool     `json:"kill,omitempty"`
}

// ClearState wipes an app's data.
type ClearState struct {
	Meta
	AppID Template `json:"appId"`
}

// OpenLink opens a URL or deep link.
type OpenLink struct {
	Meta
	Link       Template `json:"link"`
	Browser    bool     `json:"browser,omitempty"`
	AutoVerify bool     `json:"autoVerify,omitempty"`
}

// TapMode distinguishes a tap, a double tap and a long press.
type TapMode string

// Tap modes.
const (
	TapSingle TapMode = "tap"
	TapDouble TapMode = "doubleTap"
	TapLong   TapMode = "longPress"
)

// Tap taps an element or a point with Maestro's retry-if-no-change
// algorithm.
type Tap struct {
	Meta
	Mode     TapMode   `json:"mode"`
	Selector *Selector `json:"selector,omitempty"`
	// Point is "x,y" (grid units) or "x%,y%"; it may hold ${}.
	Point                 *Template `json:"point,omitempty"`
	Repeat                int       `json:"repeat"`
	DelayMs               int       `json:"delayMs"`
	RetryIfNoChange       bool      `json:"retryIfNoChange"`
	WaitUntilVisible      bool      `json:"waitUntilVisible,omitempty"`
	WaitToSettleTimeoutMs *int      `json:"waitToSettleTimeoutMs,omitempty"`
	HoldMs                int       `json:"holdMs,omitempty"`
}

// Assert waits for a condition on the screen: visible, not visible, or
// both (extendedWaitUntil). Timeout nil means the default lookup timeout.
type Assert struct {
	Meta
	Visible    *Selector `json:"visible,omitempty"`
	NotVisible *Selector `json:"notVisible,omitempty"`
	TimeoutMs  *Template `json:"timeoutMs,omitempty"`
}

// AssertTrue evaluates a template once and fails when it is falsy.
type AssertTrue struct {
	Meta
	Condition Template `json:"condition"`
}

// InputText types text into the focused field.
type InputText struct {
	Meta
	Text Template `json:"text"`
}

// InputRandom types generated text: "text", "number", "email",
// "personName", or (current Maestro only) "cityName", "countryName",
// "colorName".
type InputRandom struct {
	Meta
	Type   string `json:"type"`
	Length int    `json:"length,omitempty"`
}

// EraseText deletes characters before the cursor.
type EraseText struct {
	Meta
	Count int `json:"count"`
}

// CopyText copies an element's text for PasteText and maestro.copiedText.
type CopyText struct {
	Meta
	Selector Selector `json:"selector"`
}

// PressKey presses a named key (Maestro key names, §1.4).
type PressKey struct {
	Meta
	Key         string `json:"key"`
	AndroidCode int    `json:"androidCode"`
}

// Simple is a command without a payload: back, hideKeyboard, pasteText,
// clearKeychain, stopRecording, toggleAirplaneMode.
type Simple struct {
	Meta
	Action string `json:"action"`
}

// Swipe is every Maestro swipe form and scroll: a canonical pan with the
// internal endpoint-hold profile (ADR 0013), its ends resolved against the
// viewport read when it runs.
type Swipe struct {
	Meta
	Start                 Anchor             `json:"start"`
	End                   Anchor             `json:"end"`
	DurationMs            PlatformValue[int] `json:"durationMs"`
	WaitToSettleTimeoutMs *int               `json:"waitToSettleTimeoutMs,omitempty"`
	// Description is Maestro's wording for progress output.
	Description string `json:"-"`
}

// ScrollUntilVisible swipes from the viewport centre until an element is
// visible (Maestro §5.4). Speed and timeout may hold ${}.
type ScrollUntilVisible struct {
	Meta
	Element               Selector `json:"element"`
	Direction             string   `json:"direction"` // content direction: up, down, left, right
	TimeoutMs             Template `json:"timeoutMs"`
	Speed                 Template `json:"speed"`
	VisibilityPercentage  int      `json:"visibilityPercentage"`
	CenterElement         bool     `json:"centerElement,omitempty"`
	WaitToSettleTimeoutMs *int     `json:"waitToSettleTimeoutMs,omitempty"`
}

// WaitForAnimation waits until two screenshots in a row match.
type WaitForAnimation struct {
	Meta
	TimeoutMs int `json:"timeoutMs"`
}

// TakeScreenshot writes a PNG; StartRecording an MP4 ("Path" gets the
// extension appended, relative to the working directory). CropOn (current
// Maestro only: docs.maestro.dev reference/commands-available/
// takescreenshot) keeps the part of the screen an element covers.
type TakeScreenshot struct {
	Meta
	Path   Template  `json:"path"`
	CropOn *Selector `json:"cropOn,omitempty"`
}

// StartRecording starts a screen recording.
type StartRecording struct {
	Meta
	Path Template `json:"path"`
}

// SetLocation mocks the device location.
type SetLocation struct {
	Meta
	Latitude  Template `json:"latitude"`
	Longitude Template `json:"longitude"`
}

// Travel moves the mocked location along points at a speed in m/s.
type Travel struct {
	Meta
	Points   []Point `json:"points"` // X = latitude, Y = longitude
	SpeedMPS float64 `json:"speedMps"`
}

// AddMedia pushes files to the device gallery; paths are resolved against
// the flow file at load time.
type AddMedia struct {
	Meta
	Files []string `json:"files"`
}

// SetAirplaneMode switches airplane mode on or off.
type SetAirplaneMode struct {
	Meta
	Enabled bool `json:"enabled"`
}

// SetPermissions sets an app's permissions in the middle of a flow, as
// launchApp does before it starts the app (docs.maestro.dev,
// reference/commands-available/setpermissions; not in Maestro 1.39).
// AppID is the flow's app unless the command names another.
type SetPermissions struct {
	Meta
	AppID       Template          `json:"appId"`
	Permissions map[string]string `json:"permissions"`
}

// SetOrientation turns the device: PORTRAIT, LANDSCAPE_LEFT,
// LANDSCAPE_RIGHT or UPSIDE_DOWN (docs.maestro.dev,
// reference/commands-available/setorientation, Maestro PR #2121; not in
// Maestro 1.39).
type SetOrientation struct {
	Meta
	Orientation Template `json:"orientation"`
}

// SetClipboard sets the text pasteText pastes and maestro.copiedText
// reads (docs.maestro.dev, reference/commands-available/setclipboard; not
// in Maestro 1.39).
type SetClipboard struct {
	Meta
	Text Template `json:"text"`
}

// AssertScreenshot compares the screen, or the part an element covers,
// with a reference image (docs.maestro.dev,
// reference/commands-available/assertscreenshot; Maestro PR #2949, the
// match measure of PR #3261; not in Maestro 1.39). Path is relative to the
// folder of the flow file that holds the command; ".png" is added when it
// has no extension (PR #3034). ThresholdPercentage is the share of pixels
// that must match, 95 by default.
type AssertScreenshot struct {
	Meta
	Path                Template  `json:"path"`
	CropOn              *Selector `json:"cropOn,omitempty"`
	ThresholdPercentage float64   `json:"thresholdPercentage"`
}

// RunFlow runs a subflow file or inline commands, optionally when a
// condition holds, with extra env defined in the caller's context.
type RunFlow struct {
	Meta
	File     string     `json:"file,omitempty"` // as written
	Flow     *Flow      `json:"-"`              // the loaded subflow file
	Commands []Command  `json:"-"`              // inline commands
	Env      []EnvVar   `json:"env,omitempty"`
	When     *Condition `json:"when,omitempty"`
}

// Repeat runs commands a number of times and/or while a condition holds.
type Repeat struct {
	Meta
	Times    *Template  `json:"times,omitempty"`
	While    *Condition `json:"while,omitempty"`
	Commands []Command  `json:"-"`
}

// Retry reruns its commands on failure, at most MaxRetries more times
// (capped at 3).
type Retry struct {
	Meta
	MaxRetries Template  `json:"maxRetries"`
	File       string    `json:"file,omitempty"`
	Flow       *Flow     `json:"-"`
	Commands   []Command `json:"-"`
	Env        []EnvVar  `json:"env,omitempty"`
}

// RunScript runs a JavaScript file read at load time.
type RunScript struct {
	Meta
	File   string     `json:"file"`
	Path   string     `json:"-"`
	Source string     `json:"-"`
	Env    []EnvVar   `json:"env,omitempty"`
	When   *Condition `json:"when,omitempty"`
}

// EvalScript evaluates the ${} parts of a string for their side effects.
type EvalScript struct {
	Meta
	Script Template `json:"script"`
}

// AI is one of Maestro's AI commands. flow loads them so suites keep
// loading, and reports UNSUPPORTED_OPERATION when one runs.
type AI struct {
	Meta
	Action         string   `json:"action"` // assertWithAI, assertNoDefectsWithAI, extractTextWithAI
	Prompt         Template `json:"prompt"`
	OutputVariable string   `json:"outputVariable,omitempty"`
}

// Kind implementations: the canonical names.

func (*LaunchApp) Kind() string          { return "launchApp" }
func (*StopApp) Kind() string            { return "stopApp" }
func (*ClearState) Kind() string         { return "clearState" }
func (*OpenLink) Kind() string           { return "openLink" }
func (*Tap) Kind() string                { return "tap" }
func (*Assert) Kind() string             { return "assert" }
func (*AssertTrue) Kind() string         { return "assertTrue" }
func (*InputText) Kind() string          { return "inputText" }
func (*InputRandom) Kind() string        { return "inputRandom" }
func (*EraseText) Kind() string          { return "eraseText" }
func (*CopyText) Kind() string           { return "copyText" }
func (*PressKey) Kind() string           { return "pressKey" }
func (s *Simple) Kind() string           { return s.Action }
func (*Swipe) Kind() string              { return "swipe" }
func (*ScrollUntilVisible) Kind() string { return "scrollUntilVisible" }
func (*WaitForAnimation) Kind() string   { return "waitForAnimation" }
func (*TakeScreenshot) Kind() string     { return "takeScreenshot" }
func (*StartRecording) Kind() string     { return "startRecording" }
func (*SetLocation) Kind() string        { return "setLocation" }
func (*Travel) Kind() string             { return "travel" }
func (*AddMedia) Kind() string           { return "addMedia" }
func (*SetAirplaneMode) Kind() string    { return "setAirplaneMode" }
func (*SetPermissions) Kind() string     { return "setPermissions" }
func (*SetOrientation) Kind() string     { return "setOrientation" }
func (*SetClipboard) Kind() string       { return "setClipboard" }
func (*AssertScreenshot) Kind() string   { return "assertScreenshot" }
func (*RunFlow) Kind() string            { return "runFlow" }
func (*Repeat) Kind() string             { return "repeat" }
func (*Retry) Kind() string              { return "retry" }
func (*RunScript) Kind() string          { return "runScript" }
func (*EvalScript) Kind() string         { return "evalScript" }
func (a *AI) Kind() string               { return a.Action }

// GestureStep is a coordinate gesture written in flow's own gesture syntax
// (the CLI and .ad "gesture ..." line, or structured input): planned against
// the viewport read when it runs.
type GestureStep struct {
	Meta
	Input GestureInput `json:"input"`
}

// SwipeSeries is the "swipe x1 y1 x2 y2 [--count --pause-ms --pattern]"
// command: fixed 100 ms flings, repeated with pauses.
type SwipeSeries struct {
	Meta
	Swipe SwipeInput `json:"swipe"`
}

// Drag is a target-authored drag: both endpoints are elements, resolved
// before pointer-down, then one uninterrupted hold-move-hold plan.
type Drag struct {
	Meta
	Source            Selector `json:"source"`
	Destination       Selector `json:"destination"`
	SourceHoldMs      *int     `json:"sourceHoldMs,omitempty"`
	MoveMs            *int     `json:"moveMs,omitempty"`
	DestinationHoldMs *int     `json:"destinationHoldMs,omitempty"`
	// ExpectSource and ExpectDestination are identities recorded with the
	// drag (targets-v1): a replay checks both resolved elements against
	// them before pointer-down and refuses to drag when either differs.
	ExpectSource      *Identity `json:"expectSource,omitempty"`
	ExpectDestination *Identity `json:"expectDestination,omitempty"`
}

// Identity is what identifies an element across runs: its id and its
// accessibility label or text. Position is deliberately not part of it: an
// element that moved is still the same element.
type Identity struct {
	ID    string `json:"id,omitempty"`
	Label string `json:"label,omitempty"`
}

func (*GestureStep) Kind() string { return "gesture" }
func (*SwipeSeries) Kind() string { return "coordinateSwipe" }
func (*Drag) Kind() string        { return "drag" }
