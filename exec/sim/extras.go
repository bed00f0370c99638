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
