#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fast tier of scripts/test.sh, for the second fresh release in .ci/run: what setup
# installs (Debian packages, .venv, the Go and Rust cores), the C core's unit tests and
# known-answer checks, the Go and Rust cores' unit tests, and the Python tests of both tiers:
# the fast one (`unit`, `fake_core`: scripts/test.sh --fast) and the real paths (`real`: the
# cores, sshd, gpg, openssl s_server, network namespaces), but those that build a library
# from source (-m 'not build_once'). Left out: the AddressSanitizer build and the
# library-variant builds, which scripts/test.sh runs on the other release.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
meson setup build >/dev/null
meson compile -C build
meson test -C build --print-errorlogs
if [ -x build-extra/cipherbench-core-go ]; then
    (cd core-go && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go test ./...)
fi
if [ -x build-extra/cipherbench-core-rust ]; then
    features=(); command -v cmake >/dev/null 2>&1 || features=(--no-default-features)
    (cd core-rust && CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cipherbench/cargo-target}" \
        cargo test --release --locked --quiet "${features[@]}")
fi
CIPHERBENCH_CORE="$PWD/build/core/cipherbench-core" .venv/bin/python -m pytest -q -m 'not build_once' tests "$@"
