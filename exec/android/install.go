package android

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/flow-runner/flow/canonical"
)

// The helper's package and instrumentation (helper-apk/AndroidManifest.xml).
const (
	helperPackage = "dev.flow.helper"
	helperRunner  = helperPackage + "/.FlowInstrumentation"
)

// InstallCache remembers, per device serial, the checksum of the helper
// that is known to be installed there, so that opening the same phone
// again in one process (a restarted session, a shard) skips the install
// check. It is safe for concurrent use; the zero value is ready.
type InstallCache struct {
	mu  sync.Mutex
	sum map[string]string
}

func (c *InstallCache) known(serial, sum string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sum[serial] == sum
}

func (c *InstallCache) remember(serial, sum string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sum == nil {
		c.sum = map[string]string{}
	}
	c.sum[serial] = sum
}

func (c *InstallCache) forget(serial string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.sum, serial)
}

const helperMissingHint = "flow installs the helper it embeds unless told otherwise: pass a built one with --android-helper APK or FLOW_ANDROID_HELPER (flow android helper build makes one with ANDROID_HOME)"

// ensureHelper installs the helper unless the same one is there already
// (agent-device's policy): the installed version code first, and when it
// matches, the installed APK's checksum (`pm path` + pull) against the
// sha256 of the bytes flow installs (the embedded APK's by default: a
// helper's identity is its checksum, as the version code stays 1 while
// the protocol is flow-helper-v1). A mismatch reinstalls;
// INSTALL_FAILED_UPDATE_INCOMPATIBLE (another signing key) uninstalls
// first and retries once.
func (d *Device) ensureHelper(ctx context.Context) error {
	apk := d.cfg.HelperData
	if apk == nil {
		if d.cfg.HelperAPK == "" {
			return d.unavailable("no flow helper APK to install on %s", d.serial).WithHint(helperMissingHint)
		}
		var err error
		if apk, err = os.ReadFile(d.cfg.HelperAPK); err != nil {
			return d.unavailable("cannot read the flow helper %s: %v", d.cfg.HelperAPK, err).Wrap(err).WithHint(helperMissingHint)
		}
	}
	digest := sha256.Sum256(apk)
	sum := hex.EncodeToString(digest[:])
	if d.installed.known(d.serial, sum) {
		return nil
	}
	same, err := d.helperInstalled(ctx, sum)
	if err != nil {
		return err
	}
	if !same {
		if err := d.installHelper(ctx, apk); err != nil {
			return err
		}
	}
	d.installed.remember(d.serial, sum)
	return nil
}

// helperInstalled reports whether exactly this helper is installed.
func (d *Device) helperInstalled(ctx context.Context, sum string) (bool, error) {
	res, err := d.t.Shell(ctx, d.serial, "cmd", "package", "list", "packages", "--show-versioncode", helperPackage)
	if err != nil {
		return false, err
	}
	version, found := parseVersionCode(string(res.Stdout), helperPackage)
	if !found || (d.cfg.HelperVersionCode != 0 && version != d.cfg.HelperVersionCode) {
		return false, nil
	}
	path, err := d.shellOK(ctx, "pm", "path", helperPackage)
	if err != nil {
		return false, err
	}
	remote := ""
	for _, line := range strings.Split(path, "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "package:"); ok && strings.HasSuffix(p, "base.apk") {
			remote = p
			break
		} else if ok && remote == "" {
			remote = p
		}
	}
	if remote == "" {
		return false, nil
	}
	h := sha256.New()
	if err := d.t.Pull(ctx, d.serial, remote, h); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == sum, nil
}

// parseVersionCode reads `cmd package list packages --show-versioncode`:
// lines "package:NAME versionCode:N"; the filter is a substring match, so
// the exact name is looked for.
func parseVersionCode(out, pkg string) (int64, bool) {
	for _, line := range strings.Split(out, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] != "package:"+pkg {
			continue
		}
		for _, f := range fields[1:] {
			if v, ok := strings.CutPrefix(f, "versionCode:"); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				return n, err == nil
			}
		}
		return 0, true
	}
	return 0, false
}

// storagePermission is the helper's runtime permission up to API 28
// (helper-apk manifest: WRITE_EXTERNAL_STORAGE, maxSdkVersion 28): a
// "dangerous" permission since API 23, so installing does not grant it,
// and without it the media store refuses addMedia (MediaProvider's write
// permission below API 29).
const storagePermission = "android.permission.WRITE_EXTERNAL_STORAGE"

// needsStorageGrant says the device's API level asks for the runtime
// grant (24–28; API 29+ keeps media inserts free of it).
func (d *Device) needsStorageGrant() bool { return d.sdk != 0 && d.sdk <= 28 }

// installArgs are pm install's options: replace, and on API ≤ 28 grant the
// runtime permissions at install time (-g).
func (d *Device) installArgs() []string {
	if d.needsStorageGrant() {
		return []string{"-r", "-g"}
	}
	return []string{"-r"}
}

// grantStorage grants the storage permission on API ≤ 28. The install's
// -g covers a fresh install; this covers a helper that was installed
// without it (an older flow, by hand) or whose grant was revoked. A
// refusal only costs addMedia, whose error then says how to grant it.
func (d *Device) grantStorage(ctx context.Context) error {
	if !d.needsStorageGrant() {
		return nil
	}
	_, err := d.t.Shell(ctx, d.serial, "pm", "grant", helperPackage, storagePermission)
	return err
}

func (d *Device) installHelper(ctx context.Context, apk []byte) error {
	res, err := d.t.Install(ctx, d.serial, bytes.NewReader(apk), int64(len(apk)), d.installArgs()...)
	if err != nil {
		return d.withInstallHoldHint(err)
	}
	if installed(res) {
		return nil
	}
	if strings.Contains(string(res.Stdout)+string(res.Stderr), "INSTALL_FAILED_UPDATE_INCOMPATIBLE") {
		// Signed with another key (a helper built elsewhere): only an
		// uninstall lets the new one in.
		if _, err := d.t.Shell(ctx, d.serial, "pm", "uninstall", helperPackage); err != nil {
			return err
		}
		if res, err = d.t.Install(ctx, d.serial, bytes.NewReader(apk), int64(len(apk)), d.installArgs()...); err != nil {
			return err
		}
		if installed(res) {
			return nil
		}
	}
	return d.unavailable("the flow helper does not install on %s: %s", d.serial, clipOutput(res)).
		With("exitCode", res.ExitCode).
		WithHint(installHint(string(res.Stdout) + string(res.Stderr)))
}

func installed(res shellResult) bool {
	return res.ExitCode == 0 && strings.Contains(string(res.Stdout), "Success")
}

// clipOutput is what an error quotes of a command's output: stderr, else
// stdout, at most 400 bytes (agent-device's truncation).
func clipOutput(res shellResult) string {
	out := strings.TrimSpace(string(res.Stderr))
	if out == "" {
		out = strings.TrimSpace(string(res.Stdout))
	}
	return clipString(out, 400)
}

func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// unavailable is the coded error of a device flow cannot use.
func (d *Device) unavailable(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, format, args...).With("serial", d.serial)
}

// InstallApp installs an APK (flow test --app-file) as adb install -r
// does: streamed to the package manager, replacing an installed version
// and keeping its data. A verdict that blames the file (it does not parse,
// has no code for this device's ABI, needs a newer Android) is
// INVALID_ARGS naming it; any other refusal is the device's.
func (d *Device) InstallApp(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s cannot be read: %v", path, err).With("file", path).
			WithHint("check the path of the APK")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s is not an APK file", path).With("file", path).
			WithHint("an Android device installs .apk files")
	}
	res, err := d.t.Install(ctx, d.serial, f, st.Size(), "-r")
	if err != nil {
		return err
	}
	if installed(res) {
		return nil
	}
	verdict := clipOutput(res)
	code := canonical.CodeDeviceUnavailable
	hint := "check the device's free space and that installing over USB is allowed (Developer options)"
	// The reasons PackageManager gives for a package it cannot take as
	// it is (AOSP PackageManager.java, INSTALL_PARSE_FAILED_* and
	// INSTALL_FAILED_* constants).
	for _, r := range []string{"INSTALL_PARSE_FAILED_", "INSTALL_FAILED_INVALID_APK", "INSTALL_FAILED_NO_MATCHING_ABIS",
		"INSTALL_FAILED_OLDER_SDK", "INSTALL_FAILED_UPDATE_INCOMPATIBLE", "INSTALL_FAILED_VERSION_DOWNGRADE", "INSTALL_FAILED_TEST_ONLY"} {
		if strings.Contains(verdict, r) {
			code = canonical.CodeInvalidArgs
			hint = "build the APK for this device (its ABI and Android version), or uninstall the installed version first when it is signed with another key or newer"
			break
		}
	}
	return canonical.Errorf(code, "--app-file %s does not install on %s: %s", path, d.serial, verdict).
		With("file", path).With("serial", d.serial).WithHint(hint)
}
