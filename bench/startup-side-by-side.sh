#!/usr/bin/env bash
# Whole-process start-up, side by side: flow against a hello-world Go binary
# built with the same toolchain, each a fresh process, in pairs.
#
#   bench/startup-side-by-side.sh            # RUNS=41 pairs per command
#   FLOW_BASELINE_REF=<commit> bench/startup-side-by-side.sh   # also flow at that commit
#   FLOW_STARTUP_FLOOR=1 bench/startup-side-by-side.sh   # also the dependencies' floor
#
# Commands: `flow --version`, `flow --help`, `flow plan -- gesture pinch 0.5`
# (one gesture), each paired with the hello-world binary (prints one line).
# Pairs alternate A B A B after 3 warm-ups each, so a machine whose speed
# drifts slows both sides of a pair alike; the script prints each side's
# median wall time, CPU (user+sys) and peak resident memory (getrusage's
# ru_maxrss of the finished child), and the median of the per-pair ratios.
# Quote the ratios: on a shared machine single times move by ±30%.
#
# The floor (FLOW_STARTUP_FLOOR=1): for each dependency the guide chose that
# flow links, a program that imports only that package (blank import) and
# prints one line, built with flow's go.mod and the same toolchain, then one
# that imports all of them; each paired with hello-world like flow. What such
# a program costs is package initialization and page faults of that
# dependency alone, which no change inside flow can remove. The programs are
# built through `go build -overlay`, so nothing is written into the tree.
#
# The timer is a small Go program written to a temporary directory (wall from
# time.Now around Start/Wait, rusage from os.ProcessState), so the figures
# come from public tools only.
set -euo pipefail

RUNS=${RUNS:-41}
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/hello" "$tmp/timer"
cat >"$tmp/hello/main.go" <<'EOF'
package main

import "fmt"

func main() { fmt.Println("hello, world") }
EOF
printf 'module hello\n\ngo 1.24\n' >"$tmp/hello/go.mod"

cat >"$tmp/timer/main.go" <<'EOF'
// timer runs command A and command B alternately and prints medians.
// Usage: timer RUNS WARMUP :: A ARGS... :: B ARGS...
package main

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"syscall"
	"time"
)

type run struct{ wall, cpu, rssKiB float64 }

func once(argv []string) run {
	cmd := exec.Command(argv[0], argv[1:]...)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "timer: %v: %v\n", argv, err)
		os.Exit(1)
	}
	wall := time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return run{wall: wall.Seconds() * 1e3, cpu: cpu.Seconds() * 1e3, rssKiB: float64(ru.Maxrss)}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	runs, _ := strconv.Atoi(os.Args[1])
	warm, _ := strconv.Atoi(os.Args[2])
	var a, b []string
	cur := &a
	for _, x := range os.Args[4:] {
		if x == "::" {
			cur = &b
			continue
		}
		*cur = append(*cur, x)
	}
	for i := 0; i < warm; i++ {
		once(a)
		once(b)
	}
	var aw, bw, ac, bc, am, bm, rw, rc []float64
	for i := 0; i < runs; i++ {
		x, y := once(a), once(b)
		aw, bw = append(aw, x.wall), append(bw, y.wall)
		ac, bc = append(ac, x.cpu), append(bc, y.cpu)
		am, bm = append(am, x.rssKiB), append(bm, y.rssKiB)
		rw = append(rw, x.wall/y.wall)
		if y.cpu > 0 {
			rc = append(rc, x.cpu/y.cpu)
		}
	}
	fmt.Printf("%.2f ms wall, %.2f ms cpu, %.1f MiB peak | %.2f ms wall, %.2f ms cpu, %.1f MiB peak | ratio wall %.2fx",
		median(aw), median(ac), median(am)/1024, median(bw), median(bc), median(bm)/1024, median(rw))
	if len(rc) > runs/2 {
		fmt.Printf(", cpu %.2fx", median(rc))
	}
	fmt.Println()
}
EOF
printf 'module timer\n\ngo 1.24\n' >"$tmp/timer/go.mod"

echo "building hello-world, the timer and flow ..." >&2
(cd "$tmp/hello" && go build -o "$tmp/hello-world" .)
(cd "$tmp/timer" && go build -o "$tmp/timer-bin" .)
(cd "$repo_root" && go build -o "$tmp/flow" ./cmd/flow)
flows=(flow)
if [[ -n "${FLOW_BASELINE_REF:-}" ]]; then
  echo "building flow at $FLOW_BASELINE_REF ..." >&2
  mkdir -p "$tmp/baseline"
  git -C "$repo_root" archive "$FLOW_BASELINE_REF" | tar -x -C "$tmp/baseline"
  (cd "$tmp/baseline" && go build -o "$tmp/flow-baseline" ./cmd/flow)
  flows+=(flow-baseline)
fi

floor=()
if [[ -n "${FLOW_STARTUP_FLOOR:-}" ]]; then
  echo "building the dependencies' floor ..." >&2
  deps=(
    github.com/santhosh-tekuri/jsonschema/v5
    github.com/dop251/goja
    github.com/modelcontextprotocol/go-sdk/mcp
    github.com/danielpaulus/go-ios/ios
    github.com/urfave/cli/v2
    gopkg.in/yaml.v3
    github.com/electricbubble/gadb
    github.com/dlclark/regexp2
  )
  # A package path inside flow's module (so flow's go.mod pins the versions)
  # that exists only in the overlay.
  virtual="$repo_root/internal/startupfloor/main.go"
  floor_build() { # name, imports...
    local name=$1
    shift
    {
      echo 'package main'
      echo 'import ('
      echo '	"fmt"'
      for d in "$@"; do echo "	_ \"$d\""; done
      echo ')'
      echo 'func main() { fmt.Println("flow version floor") }'
    } >"$tmp/$name.go"
    printf '{"Replace":{"%s":"%s"}}' "$virtual" "$tmp/$name.go" >"$tmp/$name.json"
    (cd "$repo_root" && go build -overlay "$tmp/$name.json" -o "$tmp/$name" ./internal/startupfloor)
    floor+=("$name")
  }
  for d in "${deps[@]}"; do
    floor_build "only:${d//\//_}" "$d"
  done
  floor_build "all-chosen-dependencies" "${deps[@]}"
  floor_build "all-but-jsonschema" "${deps[@]:1}"
fi

echo "$(go version | cut -d' ' -f3-4), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $RUNS pairs per line after 3 warm-ups" >&2
printf '%-48s %s\n' "A | B = hello-world" "A: wall, cpu, peak | B: wall, cpu, peak | median A/B"
for f in "${flows[@]}"; do
  for args in "--version" "--help" "plan -- gesture pinch 0.5"; do
    # shellcheck disable=SC2086 # args splits into words on purpose
    line=$("$tmp/timer-bin" "$RUNS" 3 :: "$tmp/$f" $args :: "$tmp/hello-world")
    printf '%-48s %s\n' "$f $args" "$line"
  done
done
for f in "${floor[@]}"; do
  line=$("$tmp/timer-bin" "$RUNS" 3 :: "$tmp/$f" :: "$tmp/hello-world")
  printf '%-48s %s\n' "floor $f" "$line"
done
