#!/usr/bin/env bash
# Whole-process side-by-side: `flow plan --jsonl` versus agent-device 0.21.5
# answering the same JSON lines, each as a fresh process, timed from outside.
#
#   bench/plan-jsonl-side-by-side.sh
#
# Input: LINES (default 3000) lines in the public --jsonl form
#   {"input":{"kind":...},"viewport":{...},"platform":"android"|"ios"}
# made by cycling bench/inputs/two-contact.jsonl (pinch, rotate, transform
# and two-finger pan on Android and iOS phones, all valid) and renaming its
# planner-intent fields to the public ones ({"intent":{"intent":K → {"input":{"kind":K).
#
# flow side: `flow plan --jsonl < input > /dev/null`, the binary built from
# this checkout (go build ./cmd/flow).
# agent-device side: `node tools/agent-device/plan-jsonl.mjs < input > /dev/null`,
# which reads the same lines and runs agent-device's own public normalization,
# structured-to-intent step and planGesture for each, writing the same
# {"plan":...} lines (see that file).
#
# Each run is timed with bash's EPOCHREALTIME (wall) and the run's own
# user+sys time (bash `times` in a subshell). The two sides alternate, RUNS
# (default 7) pairs after one warm-up each; the script prints each side's
# median and the median of the per-pair ratios. Before timing, it checks that
# both sides answered every line with a plan.
#
# FLOW_BASELINE_REF=<commit> also builds that commit of flow and times it as a
# third side, for before/after figures. AGENT_DEVICE_DIR reuses an npm install
# of agent-device@0.21.5 (the directory holding its package.json); otherwise it
# is installed into a temporary directory that is removed on exit.
set -euo pipefail

VERSION=0.21.5
LINES=${LINES:-3000}
RUNS=${RUNS:-7}
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)
corpus="$repo_root/bench/inputs/two-contact.jsonl"

die() {
  echo "plan-jsonl-side-by-side: $*" >&2
  exit 1
}

[[ -s "$corpus" ]] || die "missing $corpus (run tools/agent-device/regen-fixture.sh)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$repo_root/tools/agent-device/install.sh"
ad_dir=$(agent_device_dir "$VERSION" "$tmp" plan-jsonl-side-by-side)

echo "building flow ..." >&2
(cd "$repo_root" && go build -o "$tmp/flow" ./cmd/flow)
sides=(agent-device flow)
declare -A cmd=(
  [agent-device]="node $repo_root/tools/agent-device/plan-jsonl.mjs"
  [flow]="$tmp/flow plan --jsonl"
)
if [[ -n "${FLOW_BASELINE_REF:-}" ]]; then
  echo "building flow at $FLOW_BASELINE_REF ..." >&2
  mkdir -p "$tmp/baseline"
  git -C "$repo_root" archive "$FLOW_BASELINE_REF" | tar -x -C "$tmp/baseline"
  (cd "$tmp/baseline" && go build -o "$tmp/flow-baseline" ./cmd/flow)
  sides+=(flow-baseline)
  cmd[flow-baseline]="$tmp/flow-baseline plan --jsonl"
fi
export AGENT_DEVICE_DIR="$ad_dir"

input="$tmp/input.jsonl"
corpus_lines=$(grep -c . "$corpus")
for ((i = 0; i < LINES; i += corpus_lines)); do
  sed 's/^{"intent":{"intent":/{"input":{"kind":/' "$corpus"
done | head -n "$LINES" >"$input"
[[ $(grep -c '^{"input":{"kind":' "$input") -eq $LINES ]] || die "could not turn $corpus into $LINES public input lines"

# Both sides must do the real work: one plan per line, no errors.
for side in "${sides[@]}"; do
  ${cmd[$side]} <"$input" >"$tmp/$side.out"
  plans=$(grep -c '^{"plan":{"topology":"two"' "$tmp/$side.out" || true)
  [[ $plans -eq $LINES ]] || die "$side answered $plans of $LINES lines with a two-contact plan: $(grep -v '^{"plan"' "$tmp/$side.out" | head -c 300)"
done

# run_once SIDE prints "<wall ms> <cpu ms>" for one run.
run_once() {
  (
    start=$EPOCHREALTIME
    ${cmd[$1]} <"$input" >/dev/null
    end=$EPOCHREALTIME
    # A builtin with a redirection runs in this shell, so its second line
    # is this one command's user and sys time.
    tf="$tmp/times.$BASHPID"
    times >"$tf"
    read -r cu cs < <(tail -n 1 "$tf")
    awk -v s="$start" -v e="$end" -v cu="$cu" -v cs="$cs" 'function sec(t) { split(t, p, "m"); return p[1] * 60 + p[2] }
      BEGIN { printf "%.3f %.1f\n", (e - s) * 1000, (sec(cu) + sec(cs)) * 1000 }'
  )
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "$(node --version), $(go version | cut -d' ' -f3-4), $LINES lines, $RUNS alternating runs per side after one warm-up, $(nproc) CPUs" >&2
for side in "${sides[@]}"; do run_once "$side" >/dev/null; done
declare -A wall cpu
for ((r = 0; r < RUNS; r++)); do
  for side in "${sides[@]}"; do
    read -r w c < <(run_once "$side")
    wall[$side]+="$w "
    cpu[$side]+="$c "
  done
done

per_line() { tr ' ' '\n' <<<"$1" | grep .; }
for side in "${sides[@]}"; do
  printf '%-14s %s\n' "$side:" "wall median $(per_line "${wall[$side]}" | median) ms, cpu (user+sys) median $(per_line "${cpu[$side]}" | median) ms  [${cmd[$side]}]"
done
ratio() { # median over pairs of $1 / $2 for the wall or cpu series named in $3
  local -n series=$3
  paste <(per_line "${series[$1]}") <(per_line "${series[$2]}") | awk '$2 > 0 { print $1 / $2 }' | median
}
printf 'agent-device / flow = %.1fx wall, %.1fx cpu (medians of per-run ratios)\n' "$(ratio agent-device flow wall)" "$(ratio agent-device flow cpu)"
if [[ -n "${FLOW_BASELINE_REF:-}" ]]; then
  printf 'flow %s / flow = %.2fx wall, %.2fx cpu\n' "$FLOW_BASELINE_REF" "$(ratio flow-baseline flow wall)" "$(ratio flow-baseline flow cpu)"
fi
