package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// LaunchApp brings an installed app to the front. ClearState resets its
// element state first; StopApp (Maestro's default) or an app that is not
// running starts it at its start screen, otherwise it resumes where it
// was. Permissions and arguments are accepted and have no effect.
func (d *Device) LaunchApp(ctx context.Context, opts exec.LaunchOptions) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	proc := d.proc(opts.AppID)
	if proc == nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "app %q is not installed on sim", opts.AppID).
			WithHint(d.installedHint(opts.AppID))
	}
	if err := d.spend(ctx, launchCostMs); err != nil {
		return err
	}
	if opts.ClearKeychain {
		d.extras.keychainClears++
	}
	if opts.ClearState {
		proc.clear()
	}
	if opts.StopApp || !proc.running() {
		proc.stop()
		proc.push(proc.screens[proc.model.Start], d.clock.Now())
	}
	proc.keyboard = false
	d.bringToFront(proc)
	d.observe(nil, "navigate", map[string]any{"screen": proc.top().screen.Name})
	return nil
}

func (d *Device) bringToFront(proc *process) {
	d.front, d.shown = proc, proc
}

func (d *Device) installedHint(appID string) string {
	ids := d.appIDs()
	hint := "installed: " + strings.Join(ids, ", ") + "; install an app model with --app FILE"
	if near := canonical.Closest(appID, ids); near != "" {
		hint = fmt.Sprintf("did you mean %q? %s", near, hint)
	}
	return hint
}

// StopApp ends the app's process (kill is the same on sim): its next
// launch starts at the start screen. An app that is not installed or not
// running is no error, as am force-stop and simctl terminate ignore it.
func (d *Device) StopApp(ctx context.Context, appID string, kill bool) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if err := d.spend(ctx, stopCostMs); err != nil {
		return err
	}
	if proc := d.proc(appID); proc != nil {
		proc.stop()
		if d.front == proc {
			d.front = nil
		}
	}
	return nil
}

// ClearState stops the app and resets every element to its model. An app
// that is not installed is skipped, as Maestro skips it on Android; on iOS
// Maestro reinstalls the app from its own bundle, which an app that is not
// there has not, so the step fails (as flow's iOS device fails it).
func (d *Device) ClearState(ctx context.Context, appID string) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if d.proc(appID) == nil && d.platform() == "ios" {
		return canonical.Errorf(canonical.CodeCommandFailed, "Unable to clear state for app %s: it is not installed on sim", appID).
			WithHint(d.installedHint(appID))
	}
	if err := d.spend(ctx, stopCostMs); err != nil {
		return err
	}
	if proc := d.proc(appID); proc != nil {
		proc.clear()
		if d.front == proc {
			d.front = nil
		}
	}
	return nil
}

// OpenLink opens a deep link in the app whose model lists it (the app in
// front first, then in install order), pushing its screen on the app's
// back stack or starting the app on it. sim has no browser.
func (d *Device) OpenLink(ctx context.Context, link string, browser bool) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	// Maestro's iOS openLink is simctl openurl, which ignores browser: the
	// link opens where iOS routes it, as on flow's iOS device.
	if browser && d.platform() != "ios" {
		return canonical.Errorf(canonical.CodeUnsupportedOperation, "sim has no web browser to open %q in", link).
			WithHint("drop browser: true to open the link in the app whose model lists it")
	}
	proc, screen := d.linkTarget(link)
	if proc == nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "no installed app opens link %q", link).
			WithHint(d.linksHint(link))
	}
	if err := d.spend(ctx, launchCostMs); err != nil {
		return err
	}
	proc.push(screen, d.clock.Now())
	d.bringToFront(proc)
	d.observe(nil, "navigate", map[string]any{"screen": screen.Name})
	return nil
}

func (d *Device) linkTarget(link string) (*process, *Screen) {
	order := d.procs
	if d.front != nil {
		order = append([]*process{d.front}, order...)
	}
	for _, p := range order {
		for _, l := range p.model.Links {
			if l.URL == link {
				return p, p.screens[l.Screen]
			}
		}
	}
	return nil, nil
}

func (d *Device) linksHint(link string) string {
	var all []string
	for _, p := range d.procs {
		for _, l := range p.model.Links {
			all = append(all, l.URL)
		}
	}
	hint := "the installed apps open: " + strings.Join(all, ", ") + "; add the link under links: in the app model"
	if near := canonical.Closest(link, all); near != "" {
		hint = fmt.Sprintf("did you mean %q? %s", near, hint)
	}
	return hint
}
