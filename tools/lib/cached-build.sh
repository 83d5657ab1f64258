# shellcheck shell=bash
# shellcheck disable=SC2154 # out and bin are the sourcing script's.
# Sourced by tools/*/build.sh: a build kept in a git-ignored folder of the repository, named by a digest
# of what it is built from, and reused once it is finished. The sourcing script sets `out` (the folder)
# and `bin` (the folder it prints), then calls, in order:
#
#   cached_build_reuse "$@"   a finished build: print $bin and exit 0; with --where and none: exit 1
#   cached_build_begin        a fresh $out.partial/ to build into (its bin/ made)
#   cached_build_end          mark it finished, move it to $out, print how long it took and $bin
#
# $bin is named as it will be under $out; during the build write into $out.partial.

# The file the digests of the build scripts take in too: a change to it builds anew.
# shellcheck disable=SC2034 # read by the sourcing script.
cached_build_lib="${BASH_SOURCE[0]}"

cached_build_reuse() {
  if [ -f "$out/complete" ]; then echo "$bin"; exit 0; fi
  if [ "${1:-}" = "--where" ]; then exit 1; fi
  return 0
}

cached_build_begin() {
  rm -rf "$out.partial"
  mkdir -p "$out.partial/bin"
  cached_build_start=$(date +%s)
}

cached_build_end() {
  touch "$out.partial/complete"
  rm -rf "$out"
  mv "$out.partial" "$out"
  echo "$(basename "$(dirname "$0")")/build.sh: built in $(($(date +%s) - cached_build_start)) s" >&2
  echo "$bin"
}
