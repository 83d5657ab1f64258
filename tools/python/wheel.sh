#!/usr/bin/env bash
# Builds the Python SDK's wheel (and source distribution) from sdk/python with the pinned build tools of
# the venv tools/python/venv.sh makes, into <repo>/.python-dist/ (git-ignored, or the folder given).
# Prints the wheel's path on its last line. Offline: no build isolation, nothing downloaded.
#
#   tools/python/wheel.sh [out-dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
sdk="$repo/sdk/python"
out=$(mkdir -p "${1:-$repo/.python-dist}" && cd "${1:-$repo/.python-dist}" && pwd)
[ -f "$sdk/pyproject.toml" ] || [ -f "$sdk/setup.py" ] ||
  { echo "python/wheel.sh: no Python SDK in sdk/python (it is generated from provider/plugin/schema.json)" >&2; exit 1; }
venv=$(bash "$here/venv.sh" | tail -n 1)
# A copy, so that the build's egg-info and build/ folders stay out of the repository.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$sdk" "$work/python"
rm -rf "$work/python/build" "$work/python/dist" "$work/python"/*.egg-info
"$venv/bin/python" -m build --no-isolation --outdir "$out" "$work/python" >&2
ls -t "$out"/*.whl | head -n 1
