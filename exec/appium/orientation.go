package appium

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

var (
	_ exec.Orienter         = (*Device)(nil)
	_ exec.OrientationNoter = (*Device)(nil)
)

// The routes that turn the screen, best first. Appium 3 names setRotation
// /appium/device/rotation (@appium/base-driver lib/protocol/routes/
// appium-device); UiAutomator2 and XCUITest implement no setRotation of
// their own and do not proxy /appium POSTs (appium-uiautomator2-driver and
// appium-xcuitest-driver lib/driver.ts NO_PROXY lists), so there they
// answer "unknown method". Both proxy the older /rotation (MJSONWP, kept
// deprecated in Appium 3) to their device servers, which turn by z:
// appium-uiautomator2-server handler/SetRotation.java, WebDriverAgent
// FBOrientationCommands.m handleSetRotation. /orientation, the last
// resort, only knows PORTRAIT and LANDSCAPE.
const (
	routeRotation       = "/appium/device/rotation"
	routeLegacyRotation = "/rotation"
	routeOrientation    = "/orientation"
)

// rotateWait is how long a turn may take beyond the usual request: both
// device servers wait for the screen to settle in the new orientation
// (UiAutomator2 polls the display rotation, WebDriverAgent waits for the
// app to cool off) before they answer.
const rotateWait = 10 * time.Second

// RotationZ is the z angle, in degrees, that turns the screen to one of
// Maestro's orientations through setRotation, for the session's driver.
// Maestro's LANDSCAPE_LEFT is the device turned 90° counter-clockwise
// (docs.maestro.dev setorientation): Android user_rotation 1, i.e.
// Surface.ROTATION_90 (Maestro's AndroidDriver), which UiAutomator2 sets
// for z 90 (ScreenRotation.ofDegrees, then UiAutomation.setRotation of its
// ordinal); on iOS UIDeviceOrientation.landscapeLeft (Maestro's
// SetOrientationHandler), which WebDriverAgent sets for z 270
// (XCUIDevice+FBRotation.m fb_rotationMapping). The two tables differ so
// that the same side of the phone ends up on top.
func RotationZ(ios bool, orientation string) (z int, ok bool) {
	switch orientation {
	case "PORTRAIT":
		return 0, true
	case "UPSIDE_DOWN":
		return 180, true
	case "LANDSCAPE_LEFT":
		if ios {
			return 270, true
		}
		return 90, true
	case "LANDSCAPE_RIGHT":
		if ios {
			return 90, true
		}
		return 270, true
	}
	return 0, false
}

// SetOrientation turns the screen (the current Maestro's setOrientation);
// see SetOrientationNoted.
func (d *Device) SetOrientation(ctx context.Context, orientation string) error {
	_, err := d.SetOrientationNoted(ctx, orientation)
	return err
}

// SetOrientationNoted turns the screen with setRotation, on the first
// route the driver answers (remembered for the session). A driver with
// neither rotation route is asked for PORTRAIT or LANDSCAPE through
// /orientation: a landscape turn then lands on the side the driver picks,
// which the note says; UPSIDE_DOWN cannot be asked for there and is
// UNSUPPORTED_OPERATION.
func (d *Device) SetOrientationNoted(ctx context.Context, orientation string) (string, error) {
	z, ok := RotationZ(d.ios(), orientation)
	if !ok {
		return "", canonical.Errorf(canonical.CodeInvalidArgs, "setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN, got %q", orientation)
	}
	d.changed()
	if !d.noRotation {
		routes := []string{routeRotation, routeLegacyRotation}
		if d.rotationRoute != "" {
			routes = []string{d.rotationRoute}
		}
		for _, route := range routes {
			err := d.client.Command(ctx, http.MethodPost, route, map[string]int{"x": 0, "y": 0, "z": z}, rotateWait, nil)
			if err == nil {
				d.rotationRoute = route
				return "", nil
			}
			if !notImplemented(err) {
				return "", err
			}
		}
		d.noRotation = true
	}
	return d.orientationOnly(ctx, orientation)
}

// orientationOnly is the last resort for a driver without setRotation:
// W3C-era /orientation, PORTRAIT or LANDSCAPE.
func (d *Device) orientationOnly(ctx context.Context, orientation string) (string, error) {
	if orientation == "UPSIDE_DOWN" {
		return "", canonical.Errorf(canonical.CodeUnsupportedOperation, "setOrientation UPSIDE_DOWN is not supported by this Appium driver (%s): it has no rotation route, and its orientation route knows only PORTRAIT and LANDSCAPE",
			orUnknown(d.automation)).
			With("operation", "setOrientation").With("platform", d.info.Platform).
			WithHint("UiAutomator2 and XCUITest turn upside down through POST /session/{id}/rotation; use one of them, or make the step optional: true")
	}
	wire, note := "PORTRAIT", ""
	if orientation != "PORTRAIT" {
		wire = "LANDSCAPE"
		note = fmt.Sprintf("this Appium driver (%s) has no rotation route: setOrientation %s turned the screen to LANDSCAPE, on the side the driver picks, which may be the other one (hint: UiAutomator2 and XCUITest choose the side through POST /session/{id}/rotation)",
			orUnknown(d.automation), orientation)
	}
	err := d.client.Command(ctx, http.MethodPost, routeOrientation, map[string]string{"orientation": wire}, rotateWait, nil)
	if err != nil {
		if notImplemented(err) {
			ce, _ := canonical.AsError(err)
			return "", canonical.Errorf(canonical.CodeUnsupportedOperation, "setOrientation is not supported by this Appium driver (%s): it answers neither the rotation nor the orientation route",
				orUnknown(d.automation)).
				With("operation", "setOrientation").With("platform", d.info.Platform).Wrap(ce).
				WithHint("UiAutomator2 and XCUITest turn the screen; use one of them, or make the step optional: true")
		}
		return "", err
	}
	return note, nil
}

// notImplemented tells a driver that lacks a route from one that failed
// to carry it out: a W3C "unknown command" or "unknown method" error
// (Appium's UnknownCommandError, 404, for a route it does not know; its
// NotYetImplementedError, 405, for a driver without the method), or, from
// an endpoint that answers without a W3C error, HTTP 404, 405 or 501. An
// "invalid session id" is a 404 too, and stays the failure it is.
func notImplemented(err error) bool {
	ce, ok := canonical.AsError(err)
	if !ok {
		return false
	}
	switch w3c, _ := ce.Details["w3cError"].(string); w3c {
	case "unknown command", "unknown method":
		return true
	case "":
		switch ce.Details["httpStatus"] {
		case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
			return true
		}
	}
	return false
}
