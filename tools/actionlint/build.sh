#!/usr/bin/env bash
# Builds actionlint, the linter of GitHub Actions workflows, at the version this folder's go.mod pins
# (its go.sum holds the hashes of every module it is built from), into
# <repo>/.actionlint/<version>-<pins>/bin (git-ignored). A finished build is reused. Prints that bin
# folder on its last line.
#
#   tools/actionlint/build.sh           build when needed, print the folder
#   tools/actionlint/build.sh --where   print the folder of a finished build, or exit 1 with no output
#
# A go.mod with a `tool` line rather than `go install …@version`: the pin and its hashes are in the
# repository, so the build takes the same sources wherever it runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib/cached-build.sh
. "$repo/tools/lib/cached-build.sh"
version=$(sed -n 's#^[[:space:]]*github.com/rhysd/actionlint \(v[^ ]*\).*#\1#p' "$here/go.mod" | head -n 1)
[ -n "$version" ] || { echo "build.sh: no github.com/rhysd/actionlint version in go.mod" >&2; exit 1; }
# Keyed by the version and a digest of the pins and of this script: a changed pin builds anew.
pins=$(cat "$here/go.mod" "$here/go.sum" "$0" "$cached_build_lib" | sha256sum | cut -c1-12)
out="$repo/.actionlint/$version-$pins"
bin="$out/bin"

cached_build_reuse "$@"
command -v go >/dev/null || { echo "build.sh: Go is not installed: actionlint is built from its Go module" >&2; exit 1; }

cached_build_begin
echo "build.sh: building actionlint $version (go $(go env GOVERSION))" >&2
# Built as a tool of this module, actionlint would report the main module's version: stamp its own.
(cd "$here" && GOBIN="$out.partial/bin" GOFLAGS="$(go env GOFLAGS) -mod=readonly" \
  go install -ldflags "-X github.com/rhysd/actionlint.version=$version" tool)
"$out.partial/bin/actionlint" -version >/dev/null
cached_build_end
