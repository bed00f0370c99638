package phone

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// helperPath is where the installed helper's APK lives; pm path names it
// and a pull of it serves the installed bytes.
const helperPath = "/data/app/~~flowfake==/" + HelperPackage + "-1/base.apk"

// appPath is the APK path pm path names for a sim app. Nothing is stored
// there: sim apps are models, not APKs.
func appPath(pkg string) string { return "/data/app/~~flowfake==/" + pkg + "-1/base.apk" }

// pm is the package manager, reached as `pm …` and `cmd package …`.
func (p *Phone) pm(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return p.notModelled("pm", args, stderr)
	}
	switch args[0] {
	case "list":
		if len(args) > 1 && args[1] == "packages" {
			return p.listPackages(args[2:], stdout)
		}
	case "path":
		return p.path(lastPositional(args[1:], "--user"), stdout)
	case "resolve-activity":
		return p.resolveActivity(args[1:], stdout)
	case "install":
		return p.install(args[1:], stdin, stdout)
	case "uninstall":
		return p.uninstall(lastPositional(args[1:], "--user"), stdout, stderr)
	case "clear":
		return p.clear(ctx, lastPositional(args[1:], "--user"), stdout, stderr)
	case "grant", "revoke":
		return p.grant(args[0], args[1:], stderr)
	}
	return p.notModelled("pm", args, stderr)
}

// packages are the installed packages: the sim apps and the helper.
func (p *Phone) packages() []string {
	out := append([]string(nil), p.apps...)
	p.mu.Lock()
	for _, pkg := range p.extra {
		if !contains(out, pkg) {
			out = append(out, pkg)
		}
	}
	if p.helper != nil {
		out = append(out, HelperPackage)
	}
	p.mu.Unlock()
	return out
}

func (p *Phone) installed(pkg string) bool { return contains(p.packages(), pkg) }

// listPackages prints every installed package whose name contains the
// filter, as pm does (a substring match, not equality: Maestro compares
// the names itself).
func (p *Phone) listPackages(args []string, stdout io.Writer) int {
	versions := contains(args, "--show-versioncode")
	filter := lastPositional(args, "--user", "--uid")
	var out []string
	for _, pkg := range p.packages() {
		if !strings.Contains(pkg, filter) {
			continue
		}
		if versions {
			out = append(out, reply("pm-list-packages-versioncode", "pkg", pkg, "versionCode", strconv.Itoa(p.versionCode(pkg))))
		} else {
			out = append(out, reply("pm-list-packages", "pkg", pkg))
		}
	}
	io.WriteString(stdout, lines(out))
	return 0
}

func (p *Phone) versionCode(pkg string) int {
	if pkg == HelperPackage {
		return p.versionCd
	}
	return 1
}

func (p *Phone) path(pkg string, stdout io.Writer) int {
	switch {
	case pkg == HelperPackage && p.installed(pkg):
		fmt.Fprintln(stdout, reply("pm-path", "path", helperPath))
	case p.isApp(pkg):
		fmt.Fprintln(stdout, reply("pm-path", "path", appPath(pkg)))
	default:
		return 1
	}
	return 0
}

// resolveActivity answers for the package named last (agent-device passes
// -a MAIN -c LAUNCHER PKG). The helper has no launcher activity.
func (p *Phone) resolveActivity(args []string, stdout io.Writer) int {
	pkg := lastPositional(args, "--user", "-a", "-c", "-d", "-n", "-f")
	if !p.isApp(pkg) {
		fmt.Fprintln(stdout, reply("resolve-activity-none"))
		return 0
	}
	fmt.Fprintln(stdout, reply("resolve-activity", "component", pkg+"/"+mainActivity))
	return 0
}

// install takes an APK, streamed (-S SIZE on stdin, how adb install
// sends it with the cmd feature) or from a pushed file. The fake cannot
// read an APK: bytes Options.Packages names install that package (flow
// test --app-file), any other bytes are the helper.
func (p *Phone) install(args []string, stdin io.Reader, stdout io.Writer) int {
	var apk []byte
	size := -1
	grantAll := false
	for i := 0; i < len(args); i++ {
		if args[i] == "-g" {
			grantAll = true
		}
		if args[i] == "-S" && i+1 < len(args) {
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 0 {
				fmt.Fprintln(stdout, reply("pm-install-failure", "reason", "INSTALL_FAILED_INVALID_APK: bad size "+args[i+1]))
				return 1
			}
			size = n
			i++
		}
	}
	if size >= 0 {
		apk = make([]byte, size)
		if _, err := io.ReadFull(stdin, apk); err != nil {
			fmt.Fprintln(stdout, reply("pm-install-failure", "reason", fmt.Sprintf("INSTALL_FAILED_INVALID_APK: read %v", err)))
			return 1
		}
	} else {
		file := lastPositional(args, "--user", "-i", "--install-location", "--originating-uri", "--referrer", "--abi")
		data, err := p.files.ReadFile(file)
		if file == "" || err != nil {
			fmt.Fprintln(stdout, reply("pm-install-failure", "reason", "INSTALL_FAILED_INVALID_URI"))
			return 1
		}
		apk = data
	}
	sum := sha256.Sum256(apk)
	if pkg, ok := p.pkgs[hex.EncodeToString(sum[:])]; ok && pkg != HelperPackage {
		return p.installApp(pkg, apk, stdout)
	}
	p.mu.Lock()
	incompatible := p.faults.IncompatibleUpdate && p.helper != nil
	failure := p.faults.InstallFailure
	p.mu.Unlock()
	if incompatible {
		failure = "INSTALL_FAILED_UPDATE_INCOMPATIBLE: Package " + HelperPackage + " signatures do not match previously installed version; ignoring!"
	}
	if failure != "" {
		fmt.Fprintln(stdout, reply("pm-install-failure", "reason", failure))
		return 1
	}
	if err := p.files.WriteFile(helperPath, apk); err != nil {
		fmt.Fprintln(stdout, reply("pm-install-failure", "reason", "INSTALL_FAILED_INSUFFICIENT_STORAGE"))
		return 1
	}
	p.stopHelper() // installing over a running package kills it
	in := Install{Size: len(apk), SHA256: hex.EncodeToString(sum[:]), Package: HelperPackage}
	p.mu.Lock()
	p.helper = apk
	p.installs = append(p.installs, in)
	// Runtime grants survive an update and are given at install time by
	// -g ("grant all runtime permissions", AOSP PackageManagerShellCommand
	// makeInstallParams: INSTALL_GRANT_RUNTIME_PERMISSIONS).
	if grantAll {
		for _, perm := range p.helperRuntime() {
			p.helperGranted[perm] = true
		}
	}
	p.mu.Unlock()
	if p.log != nil {
		fmt.Fprintf(p.log, "fakeandroid: installed %s: %d bytes, sha256 %s\n", HelperPackage, in.Size, in.SHA256)
	}
	fmt.Fprintln(stdout, reply("pm-success"))
	return 0
}

// installApp installs an APK that is not the helper: its package is
// listed from then on. InstallFailure fails it as it fails the helper.
func (p *Phone) installApp(pkg string, apk []byte, stdout io.Writer) int {
	p.mu.Lock()
	failure := p.faults.InstallFailure
	p.mu.Unlock()
	if failure != "" {
		fmt.Fprintln(stdout, reply("pm-install-failure", "reason", failure))
		return 1
	}
	sum := sha256.Sum256(apk)
	in := Install{Size: len(apk), SHA256: hex.EncodeToString(sum[:]), Package: pkg}
	p.mu.Lock()
	p.installs = append(p.installs, in)
	p.extra = append(p.extra, pkg)
	p.mu.Unlock()
	if p.log != nil {
		fmt.Fprintf(p.log, "fakeandroid: installed %s: %d bytes, sha256 %s\n", pkg, in.Size, in.SHA256)
	}
	fmt.Fprintln(stdout, reply("pm-success"))
	return 0
}

func (p *Phone) uninstall(pkg string, stdout, stderr io.Writer) int {
	if pkg != HelperPackage || !p.installed(pkg) {
		fmt.Fprintln(stdout, reply("pm-uninstall-failure"))
		return 1
	}
	p.stopHelper()
	p.mu.Lock()
	p.helper = nil
	// An uninstall drops the package's permission state with it.
	p.helperGranted = map[string]bool{}
	// A fresh install after an uninstall has nothing to be incompatible with.
	p.faults.IncompatibleUpdate = false
	p.mu.Unlock()
	_ = p.files.Remove(helperPath)
	fmt.Fprintln(stdout, reply("pm-success"))
	return 0
}

func (p *Phone) clear(ctx context.Context, pkg string, stdout, stderr io.Writer) int {
	if !p.isApp(pkg) {
		fmt.Fprintln(stderr, reply("pm-clear-failed"))
		return 255
	}
	if err := p.dev.ClearState(ctx, pkg); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	p.bump()
	fmt.Fprintln(stdout, reply("pm-success"))
	return 0
}

// grant records pm grant|revoke [--user U] PKG PERM; nothing in a sim app
// model reacts to permissions.
func (p *Phone) grant(verb string, args []string, stderr io.Writer) int {
	var pos []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--user":
			i++
		case strings.HasPrefix(args[i], "-"):
		default:
			pos = append(pos, args[i])
		}
	}
	if len(pos) != 2 {
		return p.notModelled("pm "+verb, args, stderr)
	}
	if !p.installed(pos[0]) {
		fmt.Fprintln(stderr, reply("pm-unknown-package", "verb", verb, "pkg", pos[0]))
		return 255
	}
	p.mu.Lock()
	p.grants = append(p.grants, Grant{Verb: verb, Package: pos[0], Permission: pos[1]})
	if pos[0] == HelperPackage && slices.Contains(p.helperRuntime(), pos[1]) {
		p.helperGranted[pos[1]] = verb == "grant"
	}
	p.mu.Unlock()
	return 0
}

// storagePermission is the helper's one runtime permission, requested up
// to API 28 (helper-apk manifest: WRITE_EXTERNAL_STORAGE maxSdkVersion 28).
// It is "dangerous" (a runtime permission) from API 23, so installing does
// not grant it (developer.android.com Manifest.permission
// WRITE_EXTERNAL_STORAGE; AOSP PermissionManagerService).
const storagePermission = "android.permission.WRITE_EXTERNAL_STORAGE"

// helperRuntime are the runtime permissions the helper requests on this
// phone's API level. The caller holds p.mu or needs no lock (props are
// fixed at New).
func (p *Phone) helperRuntime() []string {
	if sdk, _ := strconv.Atoi(p.props["ro.build.version.sdk"]); sdk <= 28 {
		return []string{storagePermission}
	}
	return nil
}

// storageDenied says the helper would be refused a media store write:
// below API 29 MediaProvider checks WRITE_EXTERNAL_STORAGE.
func (p *Phone) storageDenied() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.helperRuntime()) > 0 && !p.helperGranted[storagePermission]
}
