#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package from a checkout, as a Debian builder makes it: the build dependencies of
# debian/control and nothing else (apt-get build-dep), dpkg-buildpackage -us -uc -b, then
# lintian, which must find no error. The .deb files are copied to OUT.
#   .ci/deb-build.sh OUT      (as root, on a fresh Debian: .ci/run runs it in a fresh root)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: .ci/deb-build.sh OUT}
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get build-dep -y -qq --no-install-recommends ./ >/dev/null
apt-get install -y -qq --no-install-recommends lintian >/dev/null
# built from a copy, so that the checkout stays as it was and the .debs land in one place
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive --format=tar --prefix=cipherbench/ HEAD | tar -C "$work" -xf -
# nocheck: the same C tests ran on this release in .ci/run's first step (scripts/test.sh)
(cd "$work/cipherbench" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b)
echo "lintian:"
lintian --fail-on error --display-level '>=warning' "$work"/*.changes
cp "$work"/*.deb "$out"/
ls -l "$out"
