#!/usr/bin/env bash
# Makes the Python virtual environment of this repository's Python programs: every package of
# requirements.txt beside this script, then, when sdk/python exists, the generated SDK (pulumi_opsmanager)
# installed from that folder. Prints the venv's folder on its last line. A venv is reused while
# requirements.txt, this script and the Python it was made with stay the same (its folder is keyed by a
# digest of them); the SDK is installed again whenever sdk/python's files change.
#
#   tools/python/venv.sh           make or update the venv when needed, print its folder
#   tools/python/venv.sh --where   print the folder of a finished venv, or exit 1 with no output
#
# The folder is <repo>/.python-venv/<digest> (git-ignored). OPSMANAGER_PYTHON selects the Python
# (default: python3 on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${OPSMANAGER_PYTHON:-python3}
command -v "$python" >/dev/null || { echo "python/venv.sh: no $python on PATH (Python 3.9 or newer is needed)" >&2; exit 1; }
pins=$({ cat "$here/requirements.txt" "$0"; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -c1-12)
venv="$repo/.python-venv/$pins"
sdk="$repo/sdk/python"

# A digest of the SDK's files (what pip would build from), to install it again when they change.
sdk_digest() {
  (cd "$sdk" && find . -type f -not -path '*/__pycache__/*' -not -path './build/*' -not -path './dist/*' \
    -not -path '*.egg-info/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)
}
sdk_current() { [ ! -d "$sdk" ] || [ "$(cat "$venv/sdk-installed" 2>/dev/null)" = "$(sdk_digest)" ]; }

if [ "${1:-}" = "--where" ]; then
  if [ -f "$venv/complete" ] && sdk_current; then echo "$venv"; exit 0; fi
  exit 1
fi

if [ ! -f "$venv/complete" ]; then
  echo "python/venv.sh: making $venv ($("$python" --version 2>&1), the pins of tools/python/requirements.txt)" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --require-virtualenv \
    -r "$here/requirements.txt"
  "$venv/bin/python" -m pip check >&2
  touch "$venv/complete"
fi
if [ -d "$sdk" ] && ! sdk_current; then
  echo "python/venv.sh: installing the SDK from sdk/python" >&2
  rm -f "$venv/sdk-installed"
  # From a copy, so that setuptools' build/ and egg-info stay out of the repository. Its dependencies
  # are the pinned ones above: nothing more is downloaded, nothing is upgraded.
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -R "$sdk" "$work/python"
  rm -rf "$work/python/build" "$work/python/dist" "$work/python"/*.egg-info
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps "$work/python"
  "$venv/bin/python" -m pip check >&2 ||
    { echo "python/venv.sh: sdk/python needs a package tools/python/requirements.txt does not pin" >&2; exit 1; }
  sdk_digest >"$venv/sdk-installed"
fi
echo "$venv"
