#!/usr/bin/env bash
# `flow check` of the 1,000-flow workspace, side by side: the benchmark
# BenchmarkCheckWorkspace1000 (cmd/flow/check_bench_test.go) built at a
# baseline commit and from the working tree, run in turns.
#
#   FLOW_BASELINE_REF=<commit> bench/check-side-by-side.sh   # RUNS=7 turns each
#   CPUS=1 FLOW_BASELINE_REF=<commit> bench/check-side-by-side.sh   # one core
#
# Each turn runs the baseline's test binary, then the working tree's, with
# -benchtime 3x; the script prints each side's median ns/op, B/op and
# allocs/op and the median of the per-turn ratios. Alternating keeps a
# machine whose load drifts from favouring one side; quote the ratio, as
# single times on a shared machine move by ±30% or more.
set -euo pipefail

RUNS=${RUNS:-7}
CPUS=${CPUS:-$(getconf _NPROCESSORS_ONLN)}
: "${FLOW_BASELINE_REF:?set FLOW_BASELINE_REF to the commit to compare with}"
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)

tmp=$(mktemp -d)
cleanup() {
	git -C "$repo_root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

git -C "$repo_root" worktree add --detach "$tmp/base" "$FLOW_BASELINE_REF" >/dev/null 2>&1
(cd "$tmp/base" && go test -c -o "$tmp/base.test" ./cmd/flow)
(cd "$repo_root" && go test -c -o "$tmp/new.test" ./cmd/flow)

bench() {
	(cd "$tmp" && "$1" -test.run '^$' -test.bench '^BenchmarkCheckWorkspace1000$' -test.benchtime 3x \
		-test.benchmem -test.cpu "$CPUS") | awk '/^BenchmarkCheckWorkspace1000/ {print $3, $5, $7}'
}

for i in $(seq "$RUNS"); do
	b=$(bench "$tmp/base.test")
	n=$(bench "$tmp/new.test")
	echo "$b" >>"$tmp/base.txt"
	echo "$n" >>"$tmp/new.txt"
	echo "turn $i: baseline $b | new $n (ns/op B/op allocs/op)"
	paste -d' ' <(echo "$b") <(echo "$n") | awk '{print $1 / $4}' >>"$tmp/ratio.txt"
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for side in base new; do
	printf '%-8s median %s ns/op, %s B/op, %s allocs/op\n' "$side" \
		"$(cut -d' ' -f1 "$tmp/$side.txt" | median)" "$(cut -d' ' -f2 "$tmp/$side.txt" | median)" \
		"$(cut -d' ' -f3 "$tmp/$side.txt" | median)"
done
echo "median ratio (baseline / new time): $(median <"$tmp/ratio.txt")x over $RUNS turns, -test.cpu $CPUS"
