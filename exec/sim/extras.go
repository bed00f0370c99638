package sim

import (
	"context"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// extras are device settings no app model reacts to. sim remembers them so
// that toggleAirplaneMode reads back what it set and a test can see that a
// command reached the device, but nothing on screen changes.
type extras struct {
	location       *[2]float64
	airplane       bool
	media          []string
	keychainClears int
	// orientation and permissions are what setOrientation and
	// setPermissions (the current Maestro's) last set; screens are not laid
	// out again, and neither is kept in the saved state.
	orientation string
	permissions map[string]map[string]string
}

// SetOrientation remembers the orientation; screens keep their layout.
func (d *Device) SetOrientation(ctx context.Context, orientation string) error {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return err
	}
	switch orientation {
	case "PORTRAIT", "LANDSCAPE_LEFT", "LANDSCAPE_RIGHT", "UPSIDE_DOWN":
	default:
		return canonical.Errorf(canonical.CodeInvalidArgs, "sim cannot turn to %q", orientation).
			WithHint("use PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN")
	}
	d.extras.orientation = orientation
	return nil
}

// Orientation is the orientation setOrientation last set (PORTRAIT before).
func (d *Device) Orientation(ctx context.Context) (string, error) {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return "", err
	}
	if d.extras.orientation == "" {
		return "PORTRAIT", nil
	}
	return d.extras.orientation, nil
}

// SetPermissions remembers an app's permissions, merged over what was
// set before (all replaces everything); app models do not ask for any.
func (d *Device) SetPermissions(ctx context.Context, appID string, perms map[string]string) error {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if d.extras.permissions == nil {
		d.extras.permissions = map[string]map[string]string{}
	}
	cur := d.extras.permissions[appID]
	if _, ok := perms["all"]; ok || cur == nil {
		cur = map[string]string{}
	}
	for k, v := range perms {
		cur[k] = v
	}
	d.extras.permissions[appID] = cur
	return nil
}

// Permissions are what SetPermissions set for appID, a copy.
func (d *Device) Permissions(ctx context.Context, appID string) (map[string]string, error) {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, v := range d.extras.permissions[appID] {
		out[k] = v
	}
	return out, nil
}

// SetLocation mocks the location.
func (d *Device) SetLocation(ctx context.Context, latitude, longitude float64) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if !(latitude >= -90 && latitude <= 90) || !(longitude >= -180 && longitude <= 180) {
		return canonical.Errorf(canonical.CodeInvalidArgs, "location (%g, %g) is not on Earth", latitude, longitude).
			WithHint("latitude runs from -90 to 90 and longitude from -180 to 180")
	}
	d.extras.location = &[2]float64{latitude, longitude}
	return nil
}

// AirplaneMode reads the airplane mode sim remembers.
func (d *Device) AirplaneMode(ctx context.Context) (bool, error) {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return false, err
	}
	return d.extras.airplane, nil
}

// SetAirplaneMode remembers airplane mode; no app model reacts to it.
func (d *Device) SetAirplaneMode(ctx context.Context, on bool) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.airplane = on
	return nil
}

// ClearKeychain does nothing visible: app models have no keychain.
func (d *Device) ClearKeychain(ctx context.Context) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.keychainClears++
	return nil
}

// AddMedia remembers the file names; sim reads no files.
func (d *Device) AddMedia(ctx context.Context, files []string) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.media = append(d.extras.media, files...)
	return nil
}

// StartAnimation starts recording the screen: a frame now, then one after
// every call that leaves the screen different (see end), each stamped with
// the device clock, so waits on a virtual clock last their planned time in
// the animation without costing wall time. Recording again starts over.
func (d *Device) StartAnimation(ctx context.Context) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.rec = &exec.Animation{}
	return nil
}

// StopAnimation ends the recording and returns it as an animated GIF,
// which the runtime writes (sim itself writes no files).
func (d *Device) StopAnimation(ctx context.Context) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, canonical.NewError(canonical.CodeDeviceUnavailable, "the sim device is closed").
			WithHint("create a new device with sim.New")
	}
	rec := d.rec
	if rec == nil {
		return nil, canonical.NewError(canonical.CodeCommandFailed, "no recording is running on the sim device").
			WithHint("start one with startRecording")
	}
	d.rec = nil
	// The screen as the recording ends, in case no call has drawn it yet.
	now := d.clock.Now()
	rec.Add(d.render(), now)
	return rec.Encode(now)
}
