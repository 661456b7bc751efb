#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and ThreadSanitizer; exits non-zero on any report.
#
# Usage: scripts/sanitize.sh [address|thread]...   (default: both)
#
# Each sanitizer builds into its own scratch folder (.build-sanitize/<name>), so the normal
# debug build is left alone. Slow (each is a full build): run it before a release or after a
# change to concurrency or unsafe code, not in CI.
#
# - address: LeakSanitizer runs at exit; scripts/lsan.supp suppresses two leaks that are not
#   the package's (one in libXCTest's own runner, one in Foundation's Process.run), each with
#   its reason.
# - thread: needs no suppressions. The test clock keeps its state behind an NSLock
#   (Tests/TestSupport/Locked.swift), which ThreadSanitizer models; Synchronization.Mutex's
#   futex on Linux it does not.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=("$@")
if [ ${#sanitizers[@]} -eq 0 ]; then sanitizers=(address thread); fi
status=0
for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in
    address)
      export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
      ;;
    thread)
      export TSAN_OPTIONS="halt_on_error=0:exitcode=66"
      ;;
    *)
      echo "error: unknown sanitizer '$sanitizer'; use 'address' or 'thread'" >&2
      exit 2
      ;;
  esac
  echo "== swift test --sanitize=$sanitizer" >&2
  if ! swift test --sanitize="$sanitizer" --scratch-path ".build-sanitize/$sanitizer"; then
    echo "error: tests under the $sanitizer sanitizer failed or reported problems" >&2
    status=1
  fi
done
exit $status
