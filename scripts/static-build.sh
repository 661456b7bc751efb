#!/usr/bin/env bash
# Builds `intent` with the Swift runtime and Foundation linked in (`--static-swift-stdlib`), the
# build README.md recommends for installing, and checks that a copy runs on its own: from an empty
# folder, with no toolchain library on the loader's path.
#
# Usage: scripts/static-build.sh [debug|release]   (default: release)
#
# On Linux the static FoundationNetworking still links the system's libcurl, and the linker needs
# its development link (`libcurl.so`): Debian's libcurl4-openssl-dev, installed here when missing
# and apt-get can. The binary then needs only libcurl and libxml2, which Linux systems carry.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration="${1:-release}"

if [[ "$(uname -s)" == "Linux" ]] && ! ldconfig -p | grep -q 'libcurl\.so '; then
  if command -v apt-get > /dev/null; then
    echo "static-build: installing libcurl4-openssl-dev (the linker needs libcurl.so)"
    SUDO=""
    if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libcurl4-openssl-dev > /dev/null
  else
    echo "static-build: error: no libcurl.so to link against; install libcurl's development package" >&2
    exit 1
  fi
fi

swift build -c "$configuration" --product intent --static-swift-stdlib --build-path .build/static
binary=".build/static/$configuration/intent"

# A copy in a folder of its own, run from another one with a bare library path.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin" "$scratch/elsewhere"
cp "$binary" "$scratch/bin/intent"
if [[ "$(uname -s)" == "Linux" ]] && ldd "$scratch/bin/intent" | grep -q 'libswiftCore\|libFoundation'; then
  echo "static-build: error: the binary still loads the Swift runtime dynamically:" >&2
  ldd "$scratch/bin/intent" >&2
  exit 1
fi
answer="$(cd "$scratch/elsewhere" && env -u LD_LIBRARY_PATH "$scratch/bin/intent" parse --json "三分钟后提醒我")"
if ! grep -q '"intent": "timer.start"' <<< "$answer"; then
  echo "static-build: error: the copied binary did not answer as expected:" >&2
  echo "$answer" >&2
  exit 1
fi
echo "static-build: $binary ($(du -h "$binary" | cut -f1)) runs on its own from another folder"
