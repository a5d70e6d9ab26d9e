#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fast tier of scripts/test.sh, for the second fresh release in .ci/run: what setup
# installs (Debian packages, .venv, the Go and Rust cores), the C core's unit tests and
# known-answer checks, the Go and Rust cores' unit tests, the Python `unit` tier and the
# real paths most tied to the release (below).
# Left out: the AddressSanitizer build, the other real paths and the library-variant builds,
# which scripts/test.sh runs on the other release.
# Then the arm64 core: cross-built with Debian's cross toolchain against the arm64 multiarch
# -dev packages (Botan left out: scripts/debian-cross-packages.txt says why), and its meson
# tests (unit, protocol, CLI and `cipherbench-core kat`: every library's vectors and
# differentials) run under qemu-user, all but the `time` suite, which bounds a native build's
# speed (scripts/build-cross.sh arm64 --test).
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
# The Python tests: the unit tier whole (every module on this release's Python), then the
# real paths that differ most between releases (the core over every library, OpenSSH,
# GnuTLS/OpenSSL servers, gpg, PostgreSQL, every preset). The fake-core tests and the other
# real paths run on Debian 13, which keeps .ci/run within its hour.
export CIPHERBENCH_CORE="$PWD/build/core/cipherbench-core"
PYTHONPATH="$PWD/src" .venv/bin/python -m pytest -q -m unit tests "$@"
.venv/bin/python -m pytest -q -m 'not build_once' tests/test_real_core.py tests/test_ssh_cli.py \
    tests/test_tls_cli.py tests/test_gpg.py tests/test_store_postgres.py \
    tests/test_presets_real.py "$@"
# The arm64 cross build and its tests under qemu-aarch64-static (binfmt_misc registered as
# root when the machine has not: run_check starts the core as a child).
t0=$SECONDS
scripts/build-cross.sh arm64 --test
echo "ci: arm64 cross build and its tests under qemu-user passed in $(((SECONDS - t0) / 60))m$(((SECONDS - t0) % 60))s"
