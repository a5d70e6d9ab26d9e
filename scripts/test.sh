#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite: C unit tests and known-answer checks (plain and under
# AddressSanitizer + UndefinedBehaviorSanitizer), then the Python tests.
#   scripts/test.sh [PYTEST ARGS]          everything, as CI runs it
#   scripts/test.sh --fast [PYTEST ARGS]   the Python tests that drive no real program (the
#                                          `unit` and `fake_core` marks, tests/conftest.py),
#                                          on the source tree as it is: the one-minute loop
# The Python tests run on one worker per CPU (pytest-xdist; `-n 0` among PYTEST ARGS runs
# them in this process); the `serial` ones then run alone.
set -euo pipefail
cd "$(dirname "$0")/.."
# Ctrl-C: pytest ends with its own status, and the script must not go on to the next step
trap 'exit 130' INT

if [ "${1:-}" = --fast ]; then
    shift
    .venv/bin/python -c 'import xdist' 2>/dev/null || scripts/install-deps.sh --test
    PYTHONPATH="$PWD/src" exec .venv/bin/python -m pytest -q -m "not real" -n auto tests "$@"
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

# Each module's tests stay on one worker (--dist loadfile): their fixtures are shared and some
# count the module's own processes. Status 5 is a pass that had no test to run.
pytest_pass() {
    local rc=0
    CIPHERBENCH_CORE="$PWD/build/core/cipherbench-core" .venv/bin/python -m pytest -q "$@" || rc=$?
    [ "$rc" = 5 ] && rc=0
    return "$rc"
}
status=0
pytest_pass -m "not serial" -n auto --dist loadfile tests "$@" || status=$?
pytest_pass -m serial tests "$@" || status=$?
exit "$status"
