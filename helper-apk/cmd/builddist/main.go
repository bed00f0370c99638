// Command builddist builds the Android helper flow ships,
// helper-apk/dist/flow-helper.apk, and its record flow-helper.txt, from
// helper-apk/src with pinned Maven Central artifacts and Debian's aapt,
// zipalign and apksigner (helperapk.BuildDist). Run from the repository
// root:
//
//	go run ./helper-apk/cmd/builddist [-resolve] [-check] [-dir helper-apk] [-repo ~/.m2/repository] [-jdk DIR]
//
// -resolve first fetches the pinned artifacts the local repository lacks
// with mvn dependency:get (online, once); the build itself is offline.
// -check builds and compares instead of writing: it exits 1 when the
// committed files differ from the rebuild (CI runs it that way).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"

	"github.com/flow-runner/flow/canonical"
	helperapk "github.com/flow-runner/flow/helper-apk"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "builddist:", err)
		if ce, ok := canonical.AsError(err); ok && ce.Hint != "" {
			fmt.Fprintln(os.Stderr, "hint:", ce.Hint)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("builddist", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("dir", "helper-apk", "the helper-apk folder (sources, signing key, dist/)")
	repo := fl.String("repo", "", "the Maven local repository (default ~/.m2/repository)")
	jdk := fl.String("jdk", "", "a JDK 17 folder (default: javac and java on PATH)")
	resolve := fl.Bool("resolve", false, "fetch missing pinned artifacts with mvn dependency:get first")
	check := fl.Bool("check", false, "compare the rebuild with the committed files instead of writing them")
	verbose := fl.Bool("v", false, "print each command line")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	if *repo == "" {
		r, err := helperapk.MavenRepo()
		if err != nil {
			return err
		}
		*repo = r
	}
	if *resolve {
		for _, coords := range helperapk.MissingArtifacts(*repo) {
			// -Dtransitive=false: the jars are used alone; android-all's
			// pom has no dependencies the build needs.
			cmd := exec.CommandContext(ctx, "mvn", "-q", "-B", "-Dstyle.color=never", "dependency:get", "-Dmaven.repo.local="+*repo,
				"-Dartifact="+coords, "-Dtransitive=false")
			cmd.Stdout, cmd.Stderr = stderr, stderr
			fmt.Fprintln(stderr, "resolving", coords)
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("mvn dependency:get %s: %w", coords, err)
			}
		}
	}
	cfg := helperapk.DistConfig{Dir: *dir, Repo: *repo, JDK: *jdk}
	if *verbose {
		cfg.Log = stderr
	}
	d, err := helperapk.BuildDist(ctx, cfg)
	if err != nil {
		return err
	}
	apkPath, infoPath := filepath.Join(*dir, filepath.FromSlash(helperapk.DistAPK)), filepath.Join(*dir, filepath.FromSlash(helperapk.DistInfo))
	if *check {
		var stale []string
		for _, f := range []struct {
			path string
			want []byte
		}{{apkPath, d.APK}, {infoPath, d.Info}} {
			have, err := os.ReadFile(f.path)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			if !bytes.Equal(have, f.want) {
				stale = append(stale, f.path)
			}
		}
		if len(stale) > 0 {
			fmt.Fprintf(stdout, "rebuilt helper:\n%s", d.Info)
			return fmt.Errorf("%v differ from a rebuild of helper-apk/src: run go run ./helper-apk/cmd/builddist and commit helper-apk/dist", stale)
		}
		fmt.Fprintf(stdout, "helper-apk/dist is a bit-for-bit rebuild of helper-apk/src\n")
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(apkPath), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(apkPath, d.APK, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(infoPath, d.Info, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n%s", apkPath, infoPath, d.Info)
	return nil
}
