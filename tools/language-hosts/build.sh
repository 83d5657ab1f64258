#!/usr/bin/env bash
# Builds Pulumi's Python and YAML language hosts from the Go modules pinned in python-host/ and
# yaml-host/, into <repo>/.pulumi-cli/language-hosts-<pins>/ (git-ignored). A finished build is reused.
# Prints its bin folder on its last line: put it on PATH beside the CLI's (tools/pulumi-cli/build.sh).
#
#   tools/language-hosts/build.sh           build when needed, print the bin folder
#   tools/language-hosts/build.sh --where   print the bin folder of a finished build, or exit 1 with no output
#
# bin/ holds pulumi-language-yaml and pulumi-language-python, the wrapper beside this script that hands
# the real host (in python-host/, with the pulumi-language-python-exec script it runs) the program's
# virtual environment. The exec script is not committed: it is copied from the Go module cache, from
# the sdk/v3 release that tools/pulumi-cli pins for the CLI (see README.md beside this script).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib/cached-build.sh
. "$repo/tools/lib/cached-build.sh"
cli_mod="$repo/tools/pulumi-cli"
python_version=$(sed -n 's#^[[:space:]]*github.com/pulumi/pulumi/sdk/v3 \(v[^ ]*\).*#\1#p' "$here/python-host/go.mod" | head -n 1)
yaml_version=$(sed -n 's#^[[:space:]]*github.com/pulumi/pulumi-yaml \(v[^ ]*\).*#\1#p' "$here/yaml-host/go.mod" | head -n 1)
exec_version=$(sed -n 's#^[[:space:]]*github.com/pulumi/pulumi/sdk/v3 \(v[^ ]*\).*#\1#p' "$cli_mod/go.mod" | head -n 1)
[ -n "$python_version" ] && [ -n "$yaml_version" ] && [ -n "$exec_version" ] ||
  { echo "language-hosts/build.sh: no sdk/v3 or pulumi-yaml version in the go.mod files" >&2; exit 1; }
# Keyed by a digest of every pin (the CLI's sdk/v3 too: the exec script comes from it), the wrapper
# and this script, so that a changed pin builds anew beside the old build.
pins=$(cat "$here/python-host/go.mod" "$here/python-host/go.sum" "$here/yaml-host/go.mod" "$here/yaml-host/go.sum" \
  "$cli_mod/go.mod" "$here/pulumi-language-python" "$0" "$cached_build_lib" | sha256sum | cut -c1-12)
out="$repo/.pulumi-cli/language-hosts-$pins"
bin="$out/bin"

cached_build_reuse "$@"
command -v go >/dev/null || { echo "language-hosts/build.sh: Go is not installed: the language hosts are built from their Go modules" >&2; exit 1; }

cached_build_begin
mkdir -p "$out.partial/python-host"
echo "language-hosts/build.sh: building the Python host of sdk $python_version (exec script of sdk $exec_version) and the YAML host $yaml_version (go $(go env GOVERSION))" >&2
readonly_flags="$(go env GOFLAGS) -mod=readonly"
(cd "$here/python-host" && GOBIN="$out.partial/python-host" GOFLAGS="$readonly_flags" go install \
  -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$python_version" tool)
(cd "$here/yaml-host" && GOBIN="$out.partial/bin" GOFLAGS="$readonly_flags" go install \
  -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml_version" tool)
# The exec script of the CLI's own sdk/v3 (downloaded with the CLI's modules, verified by its go.sum).
sdk_dir=$(cd "$cli_mod" && GOFLAGS="$readonly_flags" go mod download -json github.com/pulumi/pulumi/sdk/v3 |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -f "$sdk_dir/python/cmd/pulumi-language-python-exec" ] ||
  { echo "language-hosts/build.sh: no python/cmd/pulumi-language-python-exec in sdk/v3 $exec_version ($sdk_dir)" >&2; exit 1; }
install -m 0755 "$sdk_dir/python/cmd/pulumi-language-python-exec" "$out.partial/python-host/"
install -m 0755 "$here/pulumi-language-python" "$out.partial/bin/"
cached_build_end
