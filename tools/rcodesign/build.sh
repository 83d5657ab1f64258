#!/usr/bin/env bash
# Builds rcodesign, the Apple code signer of the crate apple-codesign (crates.io), which signs the
# plugin's darwin executables ad hoc (tools/release/sea.js), into <repo>/.rcodesign/<version>-<digest>/
# (git-ignored) with `cargo install --locked`: the crate's own Cargo.lock, without its default
# `notarize` feature (Apple's notary service and S3 clients, which a signature made here never uses).
# It is built unoptimized (`--debug`): that compiles in half the time, and signs as fast, the pages'
# SHA-256 being ring's assembly either way, with the same bytes. A finished build is reused. Prints the
# bin folder on its last line.
#
#   tools/rcodesign/build.sh           build when needed, print the folder
#   tools/rcodesign/build.sh --where   print the folder of a finished build, or exit 1 with no output
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib/cached-build.sh
. "$repo/tools/lib/cached-build.sh"
version=0.29.0
# Keyed by the version and this script, so that a changed pin or flag builds anew beside the old build.
pins=$(cat "$0" "$cached_build_lib" | sha256sum | cut -c1-12)
out="$repo/.rcodesign/$version-$pins"
bin="$out/bin"

cached_build_reuse "$@"
command -v cargo >/dev/null || { echo "rcodesign/build.sh: cargo is not installed: rcodesign is built from its crate" >&2; exit 1; }

cached_build_begin
echo "rcodesign/build.sh: building apple-codesign $version ($(cargo --version))" >&2
# Its compiled crates are kept outside the clone, as Go keeps its build cache, so that a new clone on
# the same machine (CI's) builds in seconds; on a new machine the build starts from nothing.
target=${OPSMANAGER_RCODESIGN_TARGET:-$HOME/.cache/pulumi-opsmanager/rcodesign-target}
cargo install apple-codesign --version "=$version" --locked --no-default-features --debug \
  --root "$out.partial" --target-dir "$target" --quiet >&2
"$out.partial/bin/rcodesign" --version >/dev/null
cached_build_end
