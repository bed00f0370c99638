#!/usr/bin/env bash
# Side-by-side planner benchmark: agent-device 0.21.5 planGesture (Node) vs
# flow's Go planner, over the same two-contact inputs. One op = one plan.
#
#   bench/planner-side-by-side.sh
#
# Set AGENT_DEVICE_DIR to reuse an existing install of agent-device@0.21.5
# (the directory holding its package.json); otherwise it is installed into a
# temporary directory that is removed on exit.
set -euo pipefail

VERSION=0.21.5
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)
inputs="$repo_root/bench/inputs/two-contact.jsonl"

if [[ ! -s "$inputs" ]]; then
  echo "planner-side-by-side: missing $inputs (run tools/agent-device/regen-fixture.sh)" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$repo_root/tools/agent-device/install.sh"
ad_dir=$(agent_device_dir "$VERSION" "$tmp" planner-side-by-side)

echo "node $(node --version), $(go version | cut -d' ' -f3-4), $(wc -l <"$inputs" | tr -d ' ') inputs" >&2

node_line=$(AGENT_DEVICE_DIR="$ad_dir" node "$repo_root/tools/agent-device/bench.mjs" "$inputs")
echo "$node_line"
node_ns=$(sed -n 's/^agent-device planGesture: \([0-9.]*\) ns\/op.*/\1/p' <<<"$node_line")
if [[ -z "$node_ns" ]]; then
  echo "planner-side-by-side: could not parse the Node bench output: $node_line" >&2
  exit 1
fi

go_out="$tmp/go-bench.txt"
set +e
(cd "$repo_root" && FLOW_BENCH_INPUTS="$inputs" go test ./planner -run '^$' -bench '^BenchmarkPlanFile$' -benchtime 2s -count 3) >"$go_out" 2>&1
go_rc=$?
set -e
go_ns=$(awk '$1 ~ /^BenchmarkPlanFile(-[0-9]+)?$/ { for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") print $i }' "$go_out" | sort -g | awk '{ v[NR] = $1 } END { if (NR > 0) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
if [[ -z "$go_ns" ]]; then
  cat "$go_out" >&2
  echo "planner-side-by-side: go test printed no BenchmarkPlanFile line (exit $go_rc); is BenchmarkPlanFile in ./planner?" >&2
  exit 1
fi
if [[ $go_rc -ne 0 ]]; then
  cat "$go_out" >&2
  echo "planner-side-by-side: go test failed (exit $go_rc)" >&2
  exit 1
fi
grep -E '^BenchmarkPlanFile' "$go_out"

echo "flow planner: $go_ns ns/op (median of $(grep -cE '^BenchmarkPlanFile' "$go_out") runs)"
awk -v a="$node_ns" -v f="$go_ns" 'BEGIN { if (f <= 0) { print "agent-device / flow = n/a"; exit } printf "agent-device / flow = %.1fx\n", a / f }'
