#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# apt-get ARGS..., non-interactive, quiet when it succeeds; when it fails, what dpkg said
# about each package it could not install or configure (the lines around "dpkg: error"),
# then the end of apt's output, so that a CI log names the cause, not only
# "Sub-process /usr/bin/dpkg returned an error code (1)".
#   .ci/apt-get.sh install -y --no-install-recommends PACKAGE...
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
apt-get "$@" >"$log" 2>&1
rc=$?
[ "$rc" -eq 0 ] && exit 0
echo "ci: apt-get $* failed (exit $rc)" >&2
if grep -q '^dpkg: ' "$log"; then
    echo "ci: dpkg's errors, with the lines before each:" >&2
    grep -B 12 -A 3 '^dpkg: ' "$log" >&2
fi
echo "ci: the last 25 lines of apt-get's output:" >&2
tail -n 25 "$log" >&2
exit "$rc"
