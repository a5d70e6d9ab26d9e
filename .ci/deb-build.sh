#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package from a checkout, as a Debian builder makes it: the build dependencies of
# debian/control and nothing else (apt-get build-dep), dpkg-buildpackage -us -uc -b, then
# lintian, which must find no error. The .deb files are copied to OUT. Each part says its time.
#   .ci/deb-build.sh [--no-lintian] OUT   (as root, on a fresh Debian: .ci/run runs it in a fresh root)
set -euo pipefail
cd "$(dirname "$0")/.."
lintian=1
[ "${1:-}" = --no-lintian ] && { lintian=""; shift; }
out=${1:?usage: .ci/deb-build.sh [--no-lintian] OUT}
t0=$SECONDS
timed() { echo "deb-build: $1 in $((SECONDS - t0)) s"; t0=$SECONDS; }
.ci/apt-get.sh update
# The Go core's package needs Go >= 1.23: where the release's golang-go is older (Debian 12),
# the build profile pkg.cipherbench.nogo leaves it out.
go=$(apt-cache policy golang-go | awk '/Candidate:/ {print $2}')
if [ -z "${DEB_BUILD_PROFILES:-}" ] && ! dpkg --compare-versions "${go:-0}" ge 2:1.23~; then
    export DEB_BUILD_PROFILES=pkg.cipherbench.nogo
    echo "deb-build: golang-go here is ${go:-missing}, older than 1.23: no cipherbench-core-go (profile $DEB_BUILD_PROFILES)"
fi
.ci/apt-get.sh build-dep -y --no-install-recommends ${DEB_BUILD_PROFILES:+-P "$DEB_BUILD_PROFILES"} ./
timed "build dependencies installed"
# built from a copy, so that the checkout stays as it was and the .debs land in one place:
# what is committed where git is at hand, else the tree but .git (a fresh root has no git,
# and its checkout is a clean clone)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/cipherbench"
if command -v git >/dev/null; then
    git archive --format=tar HEAD | tar -C "$work/cipherbench" -xf -
else
    tar --exclude-vcs -cf - . | tar -C "$work/cipherbench" -xf -
fi
# nocheck: the same C tests ran on this release in .ci/run's first step (scripts/test.sh)
(cd "$work/cipherbench" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b)
timed "dpkg-buildpackage"
if [ -n "$lintian" ]; then
    .ci/apt-get.sh install -y --no-install-recommends lintian
    timed "lintian installed"
    lintian --fail-on error --display-level '>=warning' "$work"/*.changes
    timed "lintian, no error"
fi
cp "$work"/*.deb "$out"/
ls -l "$out"
