#!/usr/bin/env bash
# Builds `intent` with the Swift runtime and Foundation linked in (`--static-swift-stdlib`), the
# build README.md recommends for installing, and checks that a copy runs on its own: from an empty
# folder, with no toolchain library on the loader's path.
#
# Usage: scripts/static-build.sh [debug|release]   (default: release)
#
# On Linux the static FoundationNetworking still links the system's libcurl (and libxml2), which
# Linux systems carry; the binary then needs nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration="${1:-release}"

# The linker asks for libcurl.so. Without the development package, a link to the runtime library
# (libcurl.so.4, which every Linux system with curl has) in a folder of the build serves; only
# when neither is there is the package installed.
link_flags=()
# The loader's cache, read once (a pipe into a reader that stops early would end this script).
cache="$(ldconfig -p 2> /dev/null || true)"
dev_link="$(awk '/libcurl\.so / && !found++ { print $NF }' <<< "$cache")"
if [[ "$(uname -s)" == "Linux" ]] && [[ -z "$dev_link" || ! -e "$dev_link" ]]; then
  runtime="$(awk '/libcurl\.so\.4 / && !found++ { print $NF }' <<< "$cache")"
  if [[ -n "$runtime" && -e "$runtime" ]]; then
    mkdir -p .build/static-link
    ln -sf "$runtime" .build/static-link/libcurl.so
    link_flags=(-Xlinker -L"$PWD/.build/static-link")
  elif command -v apt-get > /dev/null; then
    echo "static-build: installing libcurl4-openssl-dev (the linker needs libcurl.so)"
    SUDO=""
    if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libcurl4-openssl-dev > /dev/null
  else
    echo "static-build: error: no libcurl to link against; install libcurl's development package" >&2
    exit 1
  fi
fi

swift build -c "$configuration" --product intent --static-swift-stdlib --build-path .build/static \
  ${link_flags[@]+"${link_flags[@]}"}
binary=".build/static/$configuration/intent"

# A copy in a folder of its own, run from another one with a bare library path.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin" "$scratch/elsewhere"
cp "$binary" "$scratch/bin/intent"
libraries="$( (ldd "$scratch/bin/intent" 2>&1 || true))"
if [[ "$(uname -s)" == "Linux" ]] && grep -q 'libswiftCore\|libFoundation' <<< "$libraries"; then
  echo "static-build: error: the binary still loads the Swift runtime dynamically:" >&2
  echo "$libraries" >&2
  exit 1
fi
answer="$(cd "$scratch/elsewhere" && env -u LD_LIBRARY_PATH "$scratch/bin/intent" parse --json "三分钟后提醒我")"
if ! grep -q '"intent": "timer.start"' <<< "$answer"; then
  echo "static-build: error: the copied binary did not answer as expected:" >&2
  echo "$answer" >&2
  exit 1
fi
echo "static-build: $binary ($(du -h "$binary" | cut -f1)) runs on its own from another folder"
