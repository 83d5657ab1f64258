#!/usr/bin/env bash
# Builds the Python SDK's wheel (and source distribution) from sdk/python with the pinned build tools of
# the venv tools/python/venv.sh makes, into <repo>/.python-dist/ (git-ignored, or the folder given).
# Prints the wheel's path on its last line. Offline: no build isolation, nothing downloaded.
# With SOURCE_DATE_EPOCH set (seconds since the epoch, e.g. the commit's time) both are reproducible: the
# wheel's entries take that time (the wheel package reads it), and the sdist, whose tar entries and gzip
# header setuptools stamps with the build's own time, is written again with that time in every stamp.
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
"$venv/bin/python" -m build --no-isolation --outdir "$work/dist" "$work/python" >&2
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  for sdist in "$work/dist"/*.tar.gz; do
    "$venv/bin/python" - "$sdist" "$SOURCE_DATE_EPOCH" <<'PY'
import gzip, io, sys, tarfile
path, epoch = sys.argv[1], int(sys.argv[2])
with tarfile.open(path, "r:gz") as old:
    members = [(m, old.extractfile(m).read() if m.isfile() else None) for m in old.getmembers()]
raw = io.BytesIO()
with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as new:
    for m, data in members:
        m.mtime, m.uid, m.gid, m.uname, m.gname = epoch, 0, 0, "", ""
        m.mode = 0o755 if m.isdir() else 0o644
        m.pax_headers = {}
        new.addfile(m, io.BytesIO(data) if data is not None else None)
with open(path, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=epoch) as gz:
    gz.write(raw.getvalue())
PY
  done
fi
cp "$work/dist"/* "$out"/
wheel=$(cd "$work/dist" && ls ./*.whl)
echo "$out/${wheel#./}"
