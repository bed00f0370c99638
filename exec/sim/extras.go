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
