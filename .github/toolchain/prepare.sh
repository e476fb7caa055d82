#!/usr/bin/env bash
# The project's toolchain for phuc-loop's reusable workflow, where the checks' own user reaches it.
# At isolation user+pidns the checks run as phuc-check: no HOME of its own, no group of the runner
# user's, so a toolchain under the runner user's HOME (rustup's, pyenv's) is out of its reach, and a
# runner's system Python refuses pip (PEP 668).
#
#   prepare.sh detect INPUT   kind=node|python|go|rust|java|none to $GITHUB_OUTPUT (INPUT auto: from
#                             the project files, as `phuc-loop init` detects them)
#   prepare.sh prepare KIND   the toolchain's bin folder on $GITHUB_PATH, a hard-linked (else copied)
#                             copy under PHUC_TOOLS where the checks' user cannot reach the original;
#                             python: a virtual environment with the project's dependencies
#
# Runs in the project's folder, as the runner user, after the official setup action of KIND.
# PHUC_TOOLS: where copies and the virtual environment go (default $RUNNER_TOOL_CACHE/phuc-loop).
set -euo pipefail

KINDS='node | python | go | rust | java | none'

detect() {
  case "$1" in
    auto) ;;
    node | python | go | rust | java | none)
      echo "kind=$1" >>"$GITHUB_OUTPUT"
      return
      ;;
    *)
      echo "::error::toolchain: '$1' is not one of auto | $KINDS"
      exit 1
      ;;
  esac
  local kind=none names
  names=$(ls -A)
  has() { for f in "$@"; do grep -qxF "$f" <<<"$names" && return 0; done; return 1; }
  # The order of init's detection: its first match is the config it writes.
  if has package.json; then
    kind=node
  elif has pyproject.toml setup.py setup.cfg tox.ini noxfile.py pytest.ini conftest.py Pipfile || grep -qE '^(.*[-_])?requirements([-_.].*)?\.txt$' <<<"$names"; then
    kind=python
  elif has go.mod; then
    kind=go
  elif has Cargo.toml; then
    kind=rust
  elif has pom.xml build.gradle build.gradle.kts settings.gradle settings.gradle.kts; then
    kind=java
  fi
  echo "toolchain: $kind (from the project files)"
  echo "kind=$kind" >>"$GITHUB_OUTPUT"
}

# Whether a user with no group of the owner's can reach $1: it and every folder above it searchable by others.
reachable() {
  local p
  p=$(realpath "$1")
  while :; do
    (($(stat -c '0%a' "$p") & 1)) || return 1
    [ "$p" = / ] && return 0
    p=$(dirname "$p")
  done
}

TOOLS=${PHUC_TOOLS:-${RUNNER_TOOL_CACHE:?neither PHUC_TOOLS nor RUNNER_TOOL_CACHE is set}/phuc-loop}

# The toolchain folder $1 as the checks' user reaches it: itself, or a copy in $TOOLS/$2.
share() {
  local root=$1 copy="$TOOLS/$2"
  if reachable "$root"; then
    echo "$root"
    return
  fi
  rm -rf "$copy"
  cp -al "$root" "$copy" 2>/dev/null || {
    rm -rf "$copy"
    cp -a "$root" "$copy"
  }
  echo "toolchain: $root is out of the checks' user's reach; using a copy in $copy" >&2
  echo "$copy"
}

on_path() {
  echo "toolchain: $1 on PATH"
  echo "$1" >>"$GITHUB_PATH"
}

# The project's dependencies (its requirement files, its own dependencies with its test extra), not
# the project itself: the checks import the tree they judge, not a copy installed before the loop.
python_dependencies() {
  local py=$1
  shopt -s nullglob
  for r in *requirements*.txt; do
    if grep -qE '^(.*[-_])?requirements([-_.].*)?\.txt$' <<<"$r"; then
      echo "toolchain: pip install -r $r"
      "$py" -m pip install --quiet -r "$r"
    fi
  done
  "$py" - <<'PY'
import json, os, re, subprocess, sys, tempfile
text = open('pyproject.toml').read() if os.path.exists('pyproject.toml') else ''
cfg = open('setup.cfg').read() if os.path.exists('setup.cfg') else ''
if not (re.search(r'^\[(project|tool\.poetry)\]', text, re.M) or os.path.exists('setup.py') or re.search(r'^\[metadata\]', cfg, re.M)):
    sys.exit(0)
extras = re.search(r'^\[project\.optional-dependencies\]([\s\S]*?)(^\[|\Z)', text, re.M)
extra = next((e for e in ('test', 'tests', 'testing', 'dev') if extras and re.search(rf'^{e}\s*=', extras.group(1), re.M)), None)
spec = f'.[{extra}]' if extra else '.'
with tempfile.TemporaryDirectory() as d:
    report = os.path.join(d, 'report.json')
    subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', '--dry-run', '--ignore-installed', '--report', report, spec], check=True)
    items = json.load(open(report))['install']
deps = [f"{i['metadata']['name']}=={i['metadata']['version']}" for i in items if 'dir_info' not in i.get('download_info', {})]
print(f'toolchain: the dependencies of {spec}: {" ".join(deps) or "none"}')
if deps:
    subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', *deps], check=True)
PY
}

prepare() {
  mkdir -p "$TOOLS"
  chmod 0755 "$TOOLS"
  if ! reachable "$TOOLS"; then
    echo "::error::toolchain: $TOOLS is out of the checks' user's reach (a folder above it is not searchable by others); set PHUC_TOOLS"
    exit 1
  fi
  local root
  case "$1" in
    none) return ;;
    node) root=$(share "$(dirname "$(dirname "$(realpath "$(command -v node)")")")" node) ;;
    go) root=$(share "$(go env GOROOT)" go) ;;
    rust) root=$(share "$(rustc --print sysroot)" rust) ;;
    java)
      root=$(share "$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')" java)
      echo "JAVA_HOME=$root" >>"$GITHUB_ENV"
      ;;
    python)
      local base venv="$TOOLS/python-venv"
      base=$(share "$(python3 -c 'import sys; print(sys.base_prefix)')" python)
      # A virtual environment: the system Python refuses pip (PEP 668). The runner user owns it; the
      # checks (the agent's code) read it and cannot change it for a later round.
      "$base/bin/python3" -m venv --clear "$venv"
      python_dependencies "$venv/bin/python"
      echo "VIRTUAL_ENV=$venv" >>"$GITHUB_ENV"
      root=$venv
      ;;
    *)
      echo "::error::toolchain: '$1' is not one of $KINDS"
      exit 1
      ;;
  esac
  on_path "$root/bin"
}

case "${1:-}" in
  detect) detect "${2:-auto}" ;;
  prepare) prepare "${2:?prepare needs a kind: $KINDS}" ;;
  *)
    echo "usage: prepare.sh detect INPUT | prepare KIND" >&2
    exit 2
    ;;
esac
