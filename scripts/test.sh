#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite: C unit tests and known-answer checks (plain and under
# AddressSanitizer + UndefinedBehaviorSanitizer), then the Python tests.
#   scripts/test.sh [PYTEST ARGS]          everything, as CI runs it
#   scripts/test.sh --fast [PYTEST ARGS]   the Python tests that drive no real program (the
#                                          `unit` and `fake_core` marks, tests/conftest.py),
#                                          on the source tree as it is: the one-minute loop
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --fast ]; then
    shift
    [ -x .venv/bin/python ] || scripts/install-deps.sh --test
    PYTHONPATH="$PWD/src" exec .venv/bin/python -m pytest -q -m "not real" tests "$@"
fi

scripts/install-deps.sh --test

# Lint and types first: a minute, and they fail before the long parts start.
.venv/bin/ruff check src tests bench scripts
.venv/bin/mypy src

meson_setup() { # dir, extra args...
    local dir=$1; shift
    if [ -d "$dir" ]; then meson setup --reconfigure "$dir" "$@" >/dev/null; else meson setup "$dir" "$@" >/dev/null; fi
}
meson_setup build
meson compile -C build
meson test -C build --print-errorlogs

meson_setup build-asan -Db_sanitize=address,undefined -Dbuildtype=debug -Db_lundef=false
meson compile -C build-asan
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --print-errorlogs

# The Go and Rust cores' own unit tests, when install-deps.sh built them (their Python
# tests in tests/test_extra_cores.py skip otherwise).
if [ -x build-extra/cipherbench-core-go ] && command -v go >/dev/null 2>&1; then
    (cd core-go && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go test ./...)
fi
if [ -x build-extra/cipherbench-core-rust ] && command -v cargo >/dev/null 2>&1; then
    features=(); command -v cmake >/dev/null 2>&1 || features=(--no-default-features)
    # the same target directory as scripts/build-extra-cores.sh, so its dependencies are reused
    (cd core-rust && CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cipherbench/cargo-target}" \
        cargo test --release --locked --quiet "${features[@]}")
fi

CIPHERBENCH_CORE="$PWD/build/core/cipherbench-core" .venv/bin/python -m pytest -q tests "$@"
