package webdriver

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/jpeg"
	"image/png"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// recordInterval is the pause after each capture of a recording: about 3
// frames a second, which shows every step of a flow, while chromedriver,
// which runs one command of a session at a time, stays free for the flow
// most of the time (a capture took 45–60 ms on a loaded 2-core machine).
const recordInterval = 250 * time.Millisecond

// recording is a screen recording in progress: a goroutine captures the
// page every recordInterval into anim until stop is called.
//
// Maestro's web driver records with DevTools Page.startScreencast
// (maestro-web WebScreenRecorder.kt), whose frames arrive as
// Page.screencastFrame events on a DevTools connection. chromedriver's
// goog/cdp/execute endpoint only returns a command's result and never
// passes events on, so flow takes periodic screenshots instead: DevTools
// Page.captureScreenshot as JPEG on Chromium, the W3C screenshot (PNG)
// elsewhere.
//
// Only the goroutine touches anim between start and stop, so it needs no
// lock: StopAnimation reads it after done is closed.
type recording struct {
	anim exec.Animation
	stop context.CancelFunc
	done chan struct{}
	cdp  bool
	// dpr is the page's devicePixelRatio: DevTools captures are scaled
	// by 1/dpr to CSS pixels, which costs Chromium less than encoding
	// the full 3× screen and flow less than decoding it.
	dpr float64
}

// StartAnimation starts recording the page (see recording): one frame
// now, so a session that cannot take screenshots fails here, then one
// every recordInterval.
func (d *Device) StartAnimation(ctx context.Context) error {
	if d.rec != nil {
		return canonical.NewError(canonical.CodeCommandFailed, "a screen recording is already running").
			WithHint("stop it with stopRecording first")
	}
	rec := &recording{cdp: d.chromium, done: make(chan struct{}), dpr: 1}
	if rec.cdp {
		var dpr float64
		if err := d.client.Execute(ctx, "return window.devicePixelRatio", nil, true, &dpr); err == nil && dpr > 0 {
			rec.dpr = dpr
		}
	}
	img, err := rec.capture(ctx, d.client)
	if err != nil {
		return err
	}
	rec.anim.Add(img, time.Now())
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	rec.stop = cancel
	d.rec = rec
	go rec.run(bg, d.client)
	return nil
}

// StopAnimation stops the capture, adds the page as it is now and returns
// the recording as an animated GIF (exec.Animation).
func (d *Device) StopAnimation(ctx context.Context) ([]byte, error) {
	rec := d.rec
	if rec == nil {
		return nil, canonical.NewError(canonical.CodeCommandFailed, "no screen recording is running").
			WithHint("start one with startRecording")
	}
	d.rec = nil
	rec.stop()
	<-rec.done
	img, err := rec.capture(ctx, d.client)
	end := time.Now()
	if err == nil {
		rec.anim.Add(img, end)
	}
	return rec.anim.Encode(end)
}

func (r *recording) run(ctx context.Context, c *Client) {
	defer close(r.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(recordInterval):
		}
		// A capture can fail while the page navigates; the next one
		// goes on.
		img, err := r.capture(ctx, c)
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			r.anim.Add(img, time.Now())
		}
	}
}

// capture is one picture of the viewport.
func (r *recording) capture(ctx context.Context, c *Client) (image.Image, error) {
	if r.cdp {
		// optimizeForSpeed trades compression for time (Chromium's
		// Page.captureScreenshot parameter); quality 80 is what Maestro
		// asks of the screencast.
		params := map[string]any{"format": "jpeg", "quality": 80, "optimizeForSpeed": true}
		// A clip is in page coordinates, so it follows the visual
		// viewport (scrolled, zoomed) as Page.getLayoutMetrics reports
		// it; without one the capture is the whole viewport, unscaled.
		var m struct {
			V struct {
				PageX        float64 `json:"pageX"`
				PageY        float64 `json:"pageY"`
				ClientWidth  float64 `json:"clientWidth"`
				ClientHeight float64 `json:"clientHeight"`
			} `json:"cssVisualViewport"`
		}
		err := c.ChromiumCDP(ctx, "Page.getLayoutMetrics", nil, &m)
		if err == nil && m.V.ClientWidth > 0 && m.V.ClientHeight > 0 {
			params["clip"] = map[string]any{"x": m.V.PageX, "y": m.V.PageY, "width": m.V.ClientWidth, "height": m.V.ClientHeight,
				"scale": 1 / r.dpr}
		}
		var shot struct {
			Data string `json:"data"`
		}
		if err == nil {
			err = c.ChromiumCDP(ctx, "Page.captureScreenshot", params, &shot)
		}
		if err == nil {
			raw, err := base64.StdEncoding.DecodeString(shot.Data)
			if err != nil {
				return nil, canonical.Errorf(canonical.CodeCommandFailed, "the DevTools screenshot is not base64: %v", err).Wrap(err)
			}
			img, err := jpeg.Decode(bytes.NewReader(raw))
			if err != nil {
				return nil, canonical.Errorf(canonical.CodeCommandFailed, "the DevTools screenshot is not a JPEG: %v", err).Wrap(err)
			}
			return img, nil
		}
		if canonical.CodeOf(err) != canonical.CodeUnsupportedOperation {
			return nil, err
		}
		r.cdp = false // not Chromium after all: W3C screenshots from now on
	}
	data, err := c.Screenshot(ctx)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeCommandFailed, "the screenshot is not a PNG: %v", err).Wrap(err)
	}
	return img, nil
}
