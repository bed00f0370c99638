#!/usr/bin/env bash
# Regenerates the agent-device 0.21.5 planner fixture and the two-contact
# benchmark inputs from the real npm package.
#
#   tools/agent-device/regen-fixture.sh
#
# Writes:
#   planner/testdata/agent-device-0.21.5.jsonl   (oracle cases, see README.md)
#   bench/inputs/two-contact.jsonl               (valid two-contact intents)
#
# Needs node >= 20 and npm. Set AGENT_DEVICE_DIR to reuse an existing install
# of agent-device@0.21.5 (the directory holding its package.json); otherwise
# the package is installed into a temporary directory that is removed on exit.
set -euo pipefail

VERSION=0.21.5
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(git -C "$script_dir" rev-parse --show-toplevel)
fixture="$repo_root/planner/testdata/agent-device-$VERSION.jsonl"
bench_inputs="$repo_root/bench/inputs/two-contact.jsonl"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$script_dir/install.sh"
ad_dir=$(agent_device_dir "$VERSION" "$tmp" regen-fixture)

mkdir -p "$(dirname "$fixture")" "$(dirname "$bench_inputs")"

# The agent-device modules must not write daemon state into the real home.
export HOME="$tmp/home"
mkdir -p "$HOME"

AGENT_DEVICE_DIR="$ad_dir" node "$script_dir/oracle.mjs" >"$tmp/fixture.jsonl" 2>"$tmp/oracle.log" || {
  cat "$tmp/oracle.log" >&2
  exit 1
}
AGENT_DEVICE_DIR="$ad_dir" node "$script_dir/oracle.mjs" --bench-inputs >"$tmp/bench.jsonl" 2>>"$tmp/oracle.log" || {
  cat "$tmp/oracle.log" >&2
  exit 1
}

# Determinism check: a second run must be byte-identical.
AGENT_DEVICE_DIR="$ad_dir" node "$script_dir/oracle.mjs" >"$tmp/fixture2.jsonl" 2>/dev/null
if ! cmp -s "$tmp/fixture.jsonl" "$tmp/fixture2.jsonl"; then
  echo "regen-fixture: oracle output is not deterministic" >&2
  exit 1
fi

mv "$tmp/fixture.jsonl" "$fixture"
mv "$tmp/bench.jsonl" "$bench_inputs"

node - "$fixture" "$bench_inputs" "$repo_root" <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const [fixture, bench, root] = process.argv.slice(2);
const lines = fs.readFileSync(fixture, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
let plans = 0, errors = 0, lowered = 0;
for (const { want } of lines) {
  if (want.error) errors += 1;
  else if (want.lowered) lowered += 1;
  else plans += 1;
}
const benchLines = fs.readFileSync(bench, 'utf8').trimEnd().split('\n').length;
const bytes = fs.statSync(fixture).size;
console.log(`agent-device 0.21.5 fixture: ${lines.length} cases, ${plans} plans, ${errors} errors, ${lowered} lowerings (${(bytes / 1e6).toFixed(2)} MB) -> ${path.relative(root, fixture)}; ${benchLines} bench inputs -> ${path.relative(root, bench)}`);
EOF
