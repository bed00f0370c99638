package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// StateVersion is the snapshot version State writes and Restore reads.
// Bump it whenever the shape or the meaning of a field changes: Restore
// refuses any other version rather than guess what an old file meant.
const StateVersion = 1

// stateFormat tells a sim snapshot from any other JSON file.
const stateFormat = "flow-sim-state"

// demoRef is how a snapshot names the built-in demo app instead of
// carrying its source.
const demoRef = "shop"

// resetHint is what every Restore error suggests: the snapshot is a cache
// of a device, so dropping it loses runtime state only, never a model file.
const resetHint = "delete the saved sim state to start a fresh sim device (every app starts from its model again)"

// The snapshot. Fields are declared in key order so the encoder writes
// sorted keys and equal devices give equal bytes.
type savedDevice struct {
	Apps     []savedApp  `json:"apps"`
	Clock    string      `json:"clock"`
	Extras   savedExtras `json:"extras"`
	Format   string      `json:"format"`
	Front    string      `json:"front,omitempty"`
	Platform string      `json:"platform,omitempty"`
	Shown    string      `json:"shown,omitempty"`
	Version  int         `json:"version"`
}

type savedApp struct {
	AppID    string         `json:"appId"`
	Elements []savedElement `json:"elements,omitempty"`
	Keyboard bool           `json:"keyboard"`
	Model    savedModel     `json:"model"`
	Stack    []savedEntry   `json:"stack,omitempty"`
}

// savedModel is the demo app by name or another model by its YAML source
// (base64 only when the source is not UTF-8, so it survives JSON
// unchanged). SHA256 is the digest of the source the state belongs to.
type savedModel struct {
	Builtin      string `json:"builtin,omitempty"`
	File         string `json:"file,omitempty"`
	SHA256       string `json:"sha256"`
	Source       string `json:"source,omitempty"`
	SourceBase64 string `json:"sourceBase64,omitempty"`
}

type savedEntry struct {
	EnteredAt string    `json:"enteredAt"`
	Focused   *savedRef `json:"focused,omitempty"`
	Screen    string    `json:"screen"`
}

// savedRef names an element of a screen: by id, or for an element without
// one by its child indexes from the screen down.
type savedRef struct {
	ID   string `json:"id,omitempty"`
	Path []int  `json:"path,omitempty"`
}

// savedElement is the state of one element that differs from its model.
type savedElement struct {
	Checked  bool    `json:"checked"`
	ID       string  `json:"id,omitempty"`
	Offset   int     `json:"offset"`
	Path     []int   `json:"path,omitempty"`
	Rotation float64 `json:"rotation"`
	Scale    float64 `json:"scale"`
	Screen   string  `json:"screen"`
	Text     string  `json:"text"`
	Visible  bool    `json:"visible"`
}

type savedExtras struct {
	Airplane       bool        `json:"airplane"`
	KeychainClears int         `json:"keychainClears"`
	Location       *[2]float64 `json:"location,omitempty"`
	Media          []string    `json:"media,omitempty"`
}

// State is a snapshot of everything that makes the device what it is for
// the next call: the installed app models (the demo app by name, others
// by their YAML source, so a later process needs no --app), the app in
// front, each app's back stack with entry times and focus, the keyboard,
// every element whose state differs from its model, the clock's time,
// the platform override, location, airplane mode, added media and
// keychain clears. The bytes are JSON with sorted keys: equal devices give
// equal bytes. The event log, the clock object and a recording in progress
// are not part of it; a recording ends with the process.
//
// State works after Close, so a caller may save once the run is over. An
// app built in Go rather than by LoadApp has no source to save, and State
// refuses it with UNSUPPORTED_OPERATION.
func (d *Device) State() ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := savedDevice{Clock: formatTime(d.clock.Now()), Format: stateFormat, Platform: d.plat, Version: StateVersion,
		Extras: savedExtras{Airplane: d.extras.airplane, KeychainClears: d.extras.keychainClears,
			Location: d.extras.location, Media: d.extras.media}}
	if d.front != nil {
		s.Front = d.front.model.AppID
	}
	if d.shown != nil {
		s.Shown = d.shown.model.AppID
	}
	s.Apps = make([]savedApp, 0, len(d.procs))
	for _, p := range d.procs {
		a, err := saveApp(p)
		if err != nil {
			return nil, err
		}
		s.Apps = append(s.Apps, a)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // app sources and texts stay readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "cannot encode the sim state: %v", err).Wrap(err)
	}
	return buf.Bytes(), nil
}

func saveApp(p *process) (savedApp, error) {
	m, err := saveModel(p.model)
	if err != nil {
		return savedApp{}, err
	}
	a := savedApp{AppID: p.model.AppID, Keyboard: p.keyboard, Model: m}
	for _, e := range p.stack {
		se := savedEntry{EnteredAt: formatTime(e.enteredAt), Screen: e.screen.Name}
		if e.focused != nil {
			if ref, ok := refIn(e.screen, e.focused); ok {
				se.Focused = &ref
			}
		}
		a.Stack = append(a.Stack, se)
	}
	for _, s := range p.model.Screens {
		walkPaths(s.Elements, nil, func(el *Element, path []int) {
			st := p.state[el]
			if st == nil || *st == initial(el) {
				return // absent and initial state are the same to the device
			}
			ref := refOf(el, path)
			a.Elements = append(a.Elements, savedElement{Checked: st.checked, ID: ref.ID, Offset: st.offset,
				Path: ref.Path, Rotation: st.rotation, Scale: st.scale, Screen: s.Name, Text: st.text, Visible: st.visible})
		})
	}
	return a, nil
}

func saveModel(app *App) (savedModel, error) {
	if app.source == nil {
		return savedModel{}, canonical.Errorf(canonical.CodeUnsupportedOperation,
			"app %q was built in Go, not loaded from YAML, so sim cannot save it", app.AppID).
			WithHint("load app models with LoadApp (--app FILE) to keep a sim device between calls")
	}
	m := savedModel{SHA256: digest(app.source)}
	switch {
	case app.Pos.File == DemoAppFile && bytes.Equal(app.source, shopYAML):
		m.Builtin = demoRef
	case utf8.Valid(app.source):
		m.File, m.Source = app.Pos.File, string(app.source)
	default:
		m.File, m.SourceBase64 = app.Pos.File, base64.StdEncoding.EncodeToString(app.source)
	}
	return m, nil
}

// Restore rebuilds a device from a State snapshot. opts.Clock and
// opts.Events serve as in New; a clock behind the saved time is advanced
// to it (when it has Advance, as exec.VirtualClock does), so appearAfterMs
// goes on counting across calls, and a nil one starts at the saved time.
// opts.Platform, when set, replaces the saved one.
//
// opts.Apps replace the saved apps with the same appId, in their place,
// and the others are installed after them. A replacement whose source is
// byte for byte the saved one keeps everything; a changed one is treated
// as an update installed over the app: its process has ended, and only
// elements marked persist that the new model still has keep their state.
// The demo app is installed when the snapshot lacks it, as New does.
//
// Data that is not a snapshot, is damaged, or has another StateVersion is
// refused with INVALID_ARGS and a hint to start from a fresh device.
func Restore(data []byte, opts Options) (*Device, error) {
	s, err := decodeState(data)
	if err != nil {
		return nil, err
	}
	now, err := parseTime(s.Clock, "clock")
	if err != nil {
		return nil, err
	}
	d := &Device{plat: s.Platform, clock: opts.Clock, events: opts.Events}
	if opts.Platform != "" {
		d.plat = opts.Platform
	}
	if d.plat != "" && d.plat != "android" && d.plat != "ios" {
		return nil, damaged("platform %q is not android or ios", d.plat)
	}
	updated, err := d.restoreApps(s, opts.Apps)
	if err != nil {
		return nil, err
	}
	if err := d.restoreScreen(s, updated); err != nil {
		return nil, err
	}
	if s.Extras.KeychainClears < 0 {
		return nil, damaged("keychainClears is %d", s.Extras.KeychainClears)
	}
	d.extras = extras{airplane: s.Extras.Airplane, keychainClears: s.Extras.KeychainClears,
		location: s.Extras.Location, media: s.Extras.Media}
	if d.events == nil {
		d.events = exec.NopLog{}
	}
	d.clock = catchUp(d.clock, now)
	return d, nil
}

// catchUp is clock moved forward to the saved time when it is behind and
// can be moved; a nil clock becomes a virtual one at the saved time. A
// clock already past the saved time keeps its time: the time between the
// calls has passed on the device too.
func catchUp(clock exec.Clock, saved time.Time) exec.Clock {
	if clock == nil {
		return exec.NewVirtualClock(saved)
	}
	adv, ok := clock.(interface{ Advance(time.Duration) })
	if now := clock.Now(); ok && now.Before(saved) {
		adv.Advance(saved.Sub(now))
	}
	return clock
}

func decodeState(data []byte) (savedDevice, error) {
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return savedDevice{}, damaged("cannot read it: %v", err).Wrap(err)
	}
	if head.Format != stateFormat {
		return savedDevice{}, damaged("its format is %q, not %q", head.Format, stateFormat)
	}
	if head.Version != StateVersion {
		return savedDevice{}, canonical.Errorf(canonical.CodeInvalidArgs,
			"the saved sim state has version %d and this flow reads version %d", head.Version, StateVersion).
			With("version", head.Version).With("want", StateVersion).WithHint(resetHint)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s savedDevice
	if err := dec.Decode(&s); err != nil {
		return savedDevice{}, damaged("%v", err).Wrap(err)
	}
	return s, nil
}

// restoreApps installs the saved apps in their order, given apps in their
// place, then the new given apps and the demo app. updated holds the ids of
// saved apps whose model changed.
func (d *Device) restoreApps(s savedDevice, given []*App) (updated map[string]bool, err error) {
	byID := map[string]*App{}
	for _, a := range given {
		if a != nil && byID[a.AppID] == nil {
			byID[a.AppID] = a
		}
	}
	updated = map[string]bool{}
	for _, a := range s.Apps {
		if d.proc(a.AppID) != nil {
			return nil, damaged("app %q is saved twice", a.AppID)
		}
		// The demo app's units follow the platform (demoAppFor): restored
		// on the other one, its saved offsets and stack belong to another
		// layout, so it starts again as after an update.
		regrid := a.Model.Builtin == demoRef && byID[a.AppID] == nil && (s.Platform == "ios") != (d.plat == "ios")
		p, same, err := restoreApp(a, byID[a.AppID], d.plat, regrid)
		if err != nil {
			return nil, err
		}
		updated[a.AppID] = !same
		d.procs = append(d.procs, p)
	}
	for _, a := range append(append([]*App(nil), given...), demoAppFor(d.plat)) {
		if a != nil && d.proc(a.AppID) == nil {
			d.procs = append(d.procs, newProcess(a))
		}
	}
	return updated, nil
}

// restoreScreen sets the app in front and the app whose viewport the
// screen has. An app updated over has no process, so the home screen is in
// front of it.
func (d *Device) restoreScreen(s savedDevice, updated map[string]bool) error {
	if s.Front != "" && !updated[s.Front] {
		d.front = d.proc(s.Front)
		switch {
		case d.front == nil:
			return damaged("the app in front, %q, is not installed", s.Front)
		case !d.front.running():
			return damaged("the app in front, %q, is not running", s.Front)
		}
	}
	if s.Shown != "" {
		if d.shown = d.proc(s.Shown); d.shown == nil {
			return damaged("the app last shown, %q, is not installed", s.Shown)
		}
	}
	return nil
}

// restoreApp builds one app's process on a device of platform plat. same
// reports whether the model is the one the state was saved with; when it
// is not, or regrid says the demo app was saved in other units, only
// persisted element state carries over.
func restoreApp(a savedApp, given *App, plat string, regrid bool) (p *process, same bool, err error) {
	model := given
	if model == nil {
		if model, err = loadSaved(a, plat); err != nil {
			return nil, false, err
		}
	}
	if model.AppID != a.AppID {
		return nil, false, damaged("the model saved for app %q has appId %q", a.AppID, model.AppID)
	}
	p = newProcess(model)
	if regrid || model.source == nil || digest(model.source) != a.Model.SHA256 {
		restorePersisted(p, a)
		return p, false, nil
	}
	if err := restoreRunning(p, a); err != nil {
		return nil, false, err
	}
	return p, true, nil
}

func loadSaved(a savedApp, plat string) (*App, error) {
	m := a.Model
	switch {
	case m.Builtin == demoRef && m.Source == "" && m.SourceBase64 == "":
		return demoAppFor(plat), nil
	case m.Builtin != "":
		return nil, damaged("app %q names built-in model %q; this flow has only %q", a.AppID, m.Builtin, demoRef)
	case m.Source != "" && m.SourceBase64 != "":
		return nil, damaged("app %q has both source and sourceBase64", a.AppID)
	}
	src := []byte(m.Source)
	if m.SourceBase64 != "" {
		var err error
		if src, err = base64.StdEncoding.DecodeString(m.SourceBase64); err != nil {
			return nil, damaged("the model of app %q is not base64: %v", a.AppID, err).Wrap(err)
		}
	}
	if len(src) == 0 {
		return nil, damaged("app %q has no model", a.AppID)
	}
	app, err := LoadApp(m.File, src)
	if err != nil {
		return nil, damaged("the saved model of app %q no longer loads: %v", a.AppID, err).Wrap(err)
	}
	return app, nil
}

// restoreRunning restores everything about an app whose model is
// unchanged; anything that does not fit the model means a damaged file.
func restoreRunning(p *process, a savedApp) error {
	for _, se := range a.Elements {
		el, err := savedElementOf(p, a.AppID, se)
		if err != nil {
			return err
		}
		if p.state[el] != nil {
			return damaged("app %q saves element %s of screen %q twice", a.AppID, describeRef(se.ID, se.Path), se.Screen)
		}
		if limit := offsetLimit(el); se.Offset < 0 || se.Offset > limit {
			return damaged("element %s of screen %q has scroll offset %d, outside 0..%d",
				describeRef(se.ID, se.Path), se.Screen, se.Offset, limit)
		}
		p.state[el] = &elemState{text: se.Text, checked: se.Checked, visible: se.Visible, offset: se.Offset,
			scale: se.Scale, rotation: se.Rotation}
	}
	for _, se := range a.Stack {
		s := p.screens[se.Screen]
		if s == nil {
			return damaged("app %q has no screen %q on its back stack", a.AppID, se.Screen)
		}
		at, err := parseTime(se.EnteredAt, "enteredAt")
		if err != nil {
			return err
		}
		e := &entry{screen: s, enteredAt: at}
		if se.Focused != nil {
			if e.focused = resolveRef(p, s, *se.Focused); e.focused == nil {
				return damaged("app %q has no element %s on screen %q to focus", a.AppID,
					describeRef(se.Focused.ID, se.Focused.Path), se.Screen)
			}
		}
		p.stack = append(p.stack, e)
	}
	if a.Keyboard && !p.running() {
		return damaged("app %q has the keyboard up but is not running", a.AppID)
	}
	p.keyboard = a.Keyboard
	return nil
}

// restorePersisted carries the state of elements marked persist over to a
// changed model, as saved preferences survive an app update; the rest of
// the saved state belonged to a process that has ended.
func restorePersisted(p *process, a savedApp) {
	for _, se := range a.Elements {
		s := p.screens[se.Screen]
		if s == nil {
			continue
		}
		el := resolveRef(p, s, savedRef{ID: se.ID, Path: se.Path})
		if el == nil || !el.Persist || p.state[el] != nil {
			continue
		}
		p.state[el] = &elemState{text: se.Text, checked: se.Checked, visible: se.Visible,
			offset: max(0, min(se.Offset, offsetLimit(el))), scale: se.Scale, rotation: se.Rotation}
	}
}

func savedElementOf(p *process, appID string, se savedElement) (*Element, error) {
	s := p.screens[se.Screen]
	if s == nil {
		return nil, damaged("app %q has no screen %q", appID, se.Screen)
	}
	el := resolveRef(p, s, savedRef{ID: se.ID, Path: se.Path})
	if el == nil {
		return nil, damaged("app %q has no element %s on screen %q", appID, describeRef(se.ID, se.Path), se.Screen)
	}
	return el, nil
}

// offsetLimit is the largest scroll offset el can have: 0 unless it is a
// scroll container.
func offsetLimit(el *Element) int {
	if el.Scroll == nil {
		return 0
	}
	return maxOffset(el)
}

// walkPaths visits every element of a screen with its child indexes. The
// path slice is reused; copy it to keep it.
func walkPaths(list []*Element, path []int, visit func(el *Element, path []int)) {
	for i, el := range list {
		p := append(path, i)
		visit(el, p)
		walkPaths(el.Elements, p, visit)
	}
}

// refOf names an element: by id when it has one, which survives edits
// around it, else by its path.
func refOf(el *Element, path []int) savedRef {
	if el.ID != "" {
		return savedRef{ID: el.ID}
	}
	return savedRef{Path: append([]int(nil), path...)}
}

// refIn names el within screen s.
func refIn(s *Screen, el *Element) (savedRef, bool) {
	var ref savedRef
	found := false
	walkPaths(s.Elements, nil, func(e *Element, path []int) {
		if e == el && !found {
			ref, found = refOf(e, path), true
		}
	})
	return ref, found
}

// resolveRef is the element ref names on screen s, nil when there is
// none. A path must lead to an element without an id, as refOf writes.
func resolveRef(p *process, s *Screen, ref savedRef) *Element {
	switch {
	case ref.ID != "" && len(ref.Path) == 0:
		return p.find(s, ref.ID)
	case ref.ID != "" || len(ref.Path) == 0:
		return nil
	}
	list := s.Elements
	var el *Element
	for _, i := range ref.Path {
		if i < 0 || i >= len(list) {
			return nil
		}
		el = list[i]
		list = el.Elements
	}
	if el.ID != "" {
		return nil
	}
	return el
}

func describeRef(id string, path []int) string {
	if id != "" {
		return "id " + id
	}
	b, _ := json.Marshal(path)
	return "at path " + string(b)
}

func digest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTime(s, field string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, damaged("%s %q is not an RFC 3339 time", field, s).Wrap(err)
	}
	return t.UTC(), nil
}

// damaged is the error for a snapshot Restore cannot use.
func damaged(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, "the saved sim state is damaged: "+format, args...).
		WithHint(resetHint)
}
