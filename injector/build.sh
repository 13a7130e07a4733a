#!/usr/bin/env bash
# Assembles smali/ into autoplay-inject.dex (checked in).
#   injector/build.sh          rebuild autoplay-inject.dex
#   injector/build.sh --check  rebuild into a temporary file; fail if it differs from autoplay-inject.dex
# Needs smali (Debian: libsmali-java). The output is deterministic: one job, no timestamps,
# independent of the checkout's path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dex=$here/autoplay-inject.dex

check=0
case "${1:-}" in
  "") ;;
  --check) check=1 ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

if ! command -v smali >/dev/null 2>&1; then
  echo "build.sh: smali not found (Debian: apt-get install libsmali-java)" >&2
  exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --api 15 (smali's default, spelled out): dex format 035, which every Android version loads.
(cd "$here/smali" && smali assemble -j 1 --api 15 -o "$tmp/out.dex" .)
# dexdump (Debian: dexdump), when installed, checks the file's structure and checksum.
if command -v dexdump >/dev/null 2>&1 && ! dexdump -c "$tmp/out.dex" >/dev/null 2>&1; then
  echo "build.sh: dexdump rejects the assembled dex:" >&2
  dexdump -c "$tmp/out.dex" >&2 || true
  exit 1
fi

if [ "$check" = 1 ]; then
  if [ ! -f "$dex" ]; then
    echo "build.sh --check: injector/autoplay-inject.dex is missing; run injector/build.sh and commit it" >&2
    exit 1
  fi
  if ! cmp -s "$tmp/out.dex" "$dex"; then
    echo "build.sh --check: injector/autoplay-inject.dex is stale: it differs from what injector/smali/ assembles to;" >&2
    echo "  run injector/build.sh and commit injector/autoplay-inject.dex" >&2
    exit 1
  fi
  echo "build.sh --check: injector/autoplay-inject.dex is up to date ($(wc -c <"$dex") bytes, sha256 $(sha256sum "$dex" | cut -c1-16))"
else
  mv "$tmp/out.dex" "$dex"
  echo "build.sh: wrote injector/autoplay-inject.dex ($(wc -c <"$dex") bytes, sha256 $(sha256sum "$dex" | cut -c1-16))"
fi
