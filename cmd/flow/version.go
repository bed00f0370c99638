package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// version overrides the module version when set at link time:
//
//	go build -ldflags "-X main.version=v1.2.3" ./cmd/flow
//
// Release builds set it; `go install module@version` needs nothing, the
// build info carries the version.
var version = ""

// buildVersion is what flow --version reports about this binary.
type buildVersion struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Time     string `json:"time,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// readVersion reads the version from the build info the Go toolchain
// stamps into every binary: the main module's version (a tag for
// go install, "(devel)" for a checkout build) and, for builds inside a
// git checkout, the commit, its time and whether the tree had changes.
func readVersion(info *debug.BuildInfo, ok bool) buildVersion {
	v := buildVersion{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if ok && info != nil {
		if info.Main.Version != "" {
			v.Version = info.Main.Version
		}
		if info.GoVersion != "" {
			v.Go = info.GoVersion
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			case "vcs.time":
				v.Time = s.Value
			}
		}
	}
	if version != "" {
		v.Version = version
	}
	return v
}

// String is the one line flow --version prints:
//
//	flow v1.2.3 (commit 07cd974ab1c2, modified, 2026-05-01T10:00:00Z) go1.26.8 linux/amd64
func (v buildVersion) String() string {
	s := "flow " + v.Version
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " (commit " + c
		if v.Modified {
			s += ", modified"
		}
		if v.Time != "" {
			s += ", " + v.Time
		}
		s += ")"
	}
	return s + " " + v.Go + " " + v.Platform
}

func printVersion(w io.Writer, asJSON bool) error {
	v := readVersion(debug.ReadBuildInfo())
	if asJSON {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, string(data))
		return err
	}
	_, err := fmt.Fprintln(w, v.String())
	return err
}

func versionCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print flow's version, commit and Go version",
		ArgsUsage: " ",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the version as JSON"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c, "flow version"); err != nil {
				return err
			}
			return printVersion(env.Stdout, c.Bool("json"))
		},
	}
}
