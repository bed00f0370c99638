# Sourced by the scripts that run agent-device beside flow; not run alone.
#
# agent_device_dir VERSION TMP CALLER prints the directory holding
# agent-device's package.json: $AGENT_DEVICE_DIR when set (an install to
# reuse), otherwise a fresh npm install of agent-device@VERSION under TMP.
# It fails, naming CALLER, unless the package found is exactly VERSION, so a
# figure or fixture can never come from another release.
agent_device_dir() {
  local version=$1 tmp=$2 caller=$3 dir installed
  if [[ -n "${AGENT_DEVICE_DIR:-}" ]]; then
    dir=$(cd "$AGENT_DEVICE_DIR" && pwd)
  else
    echo "installing agent-device@$version into $tmp/npm ..." >&2
    mkdir -p "$tmp/npm"
    (cd "$tmp/npm" && npm install --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "agent-device@$version" >&2)
    dir="$tmp/npm/node_modules/agent-device"
  fi
  installed=$(node -p 'require(process.argv[1]).version' "$dir/package.json")
  if [[ "$installed" != "$version" ]]; then
    echo "$caller: expected agent-device $version, found $installed at $dir" >&2
    return 1
  fi
  echo "$dir"
}
