package sim

import (
	"context"

	"github.com/flow-runner/flow/canonical"
)

// extras are device settings no app model reacts to. sim remembers them so
// that toggleAirplaneMode reads back what it set and a test can see that a
// command reached the device, but nothing on screen changes.
type extras struct {
	location       *[2]float64
	airplane       bool
	media          []string
	recording      string
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
	defer d.mu.Unlock()
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
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return false, err
	}
	return d.extras.airplane, nil
}

// SetAirplaneMode remembers airplane mode; no app model reacts to it.
func (d *Device) SetAirplaneMode(ctx context.Context, on bool) error {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.airplane = on
	return nil
}

// ClearKeychain does nothing visible: app models have no keychain.
func (d *Device) ClearKeychain(ctx context.Context) error {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.keychainClears++
	return nil
}

// AddMedia remembers the file names; sim reads no files.
func (d *Device) AddMedia(ctx context.Context, files []string) error {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.media = append(d.extras.media, files...)
	return nil
}

// StartRecording remembers the path; sim writes no video.
func (d *Device) StartRecording(ctx context.Context, path string) error {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.recording = path
	return nil
}

// StopRecording ends the pretend recording.
func (d *Device) StopRecording(ctx context.Context) error {
	defer d.mu.Unlock()
	if err := d.begin(ctx); err != nil {
		return err
	}
	d.extras.recording = ""
	return nil
}
