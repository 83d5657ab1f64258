#!/usr/bin/env bash
# Builds the Pulumi CLI pinned in this folder's go.mod, and a Node.js language host, from their Go
# modules, into <repo>/.pulumi-cli/<version>-<pins>/bin (git-ignored), beside the
# pulumi-resource-pulumi-nodejs plugin that dynamic providers need. A finished build is reused.
# Prints that bin folder on its last line.
#
#   tools/pulumi-cli/build.sh           build when needed, print the folder
#   tools/pulumi-cli/build.sh --where   print the folder of a finished build, or exit 1 with no output
#
# Why two modules: the language host's own module (sdk/nodejs/cmd/pulumi-language-nodejs/v3) is not
# served by the Go module proxy these machines reach, so nodejs-host/ pins the newest sdk/v3 release
# that still carried the host inside it (see README.md beside this script).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib/cached-build.sh
. "$repo/tools/lib/cached-build.sh"
version=$(sed -n 's#^[[:space:]]*github.com/pulumi/pulumi/pkg/v3 \(v[^ ]*\).*#\1#p' "$here/go.mod" | head -n 1)
host_version=$(sed -n 's#^[[:space:]]*github.com/pulumi/pulumi/sdk/v3 \(v[^ ]*\).*#\1#p' "$here/nodejs-host/go.mod" | head -n 1)
[ -n "$version" ] && [ -n "$host_version" ] || { echo "build.sh: no pulumi/pkg/v3 or sdk/v3 version in the go.mod files" >&2; exit 1; }
# The folder is keyed by the CLI's version and a digest of every pin and of this script, so a changed
# pin builds anew beside the old build.
pins=$(cat "$here/go.mod" "$here/go.sum" "$here/nodejs-host/go.mod" "$here/nodejs-host/go.sum" \
  "$here/pulumi-resource-pulumi-nodejs" "$0" "$cached_build_lib" | sha256sum | cut -c1-12)
out="$repo/.pulumi-cli/$version-$pins"
bin="$out/bin"

cached_build_reuse "$@"
command -v go >/dev/null || { echo "build.sh: Go is not installed: the Pulumi CLI is built from its Go modules" >&2; exit 1; }

cached_build_begin
stamp="github.com/pulumi/pulumi/sdk/v3/go/common/version.Version"
echo "build.sh: building the Pulumi CLI $version and the Node.js language host of sdk $host_version (go $(go env GOVERSION))" >&2
(cd "$here" && GOBIN="$out.partial/bin" GOFLAGS="$(go env GOFLAGS) -mod=readonly" go install -ldflags "-X $stamp=$version" tool)
(cd "$here/nodejs-host" && GOBIN="$out.partial/bin" GOFLAGS="$(go env GOFLAGS) -mod=readonly" go install -ldflags "-X $stamp=$host_version" tool)
cp "$here/pulumi-resource-pulumi-nodejs" "$out.partial/bin/"
chmod +x "$out.partial/bin/pulumi-resource-pulumi-nodejs"
"$out.partial/bin/pulumi" version >/dev/null
cached_build_end
