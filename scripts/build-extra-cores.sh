#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the measurement cores of other languages into build-extra/ when their toolchain
# is here: core-go/ (Go's standard library and x/crypto, library "go") with Go >= 1.23
# (Debian 13 ships 1.24, Debian 12 has 1.23 in bookworm-backports),
# core-rust/ (ring, RustCrypto, and AWS-LC through aws-lc-rs when cmake is here; rustls with
# each of ring and aws-lc-rs for its tls command) with Rust >= 1.85. A missing or too old
# toolchain skips its core with one line; a core that
# fails to compile is said and the script exits 1.
# Dependencies come pinned from core-go/go.sum and core-rust/Cargo.lock.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build-extra
vectors="$PWD/vectors"
mkdir -p "$out"
status=0

# version_at_least HAVE WANT: both dotted, e.g. 1.26.3 1.26
version_at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

if ! command -v go >/dev/null 2>&1; then
    echo "core-go: skipped (no go toolchain on PATH; Debian's golang-go builds it: scripts/install-deps.sh installs it)"
elif ! goversion=$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null) \
        || ! version_at_least "${goversion#go}" 1.23; then
    echo "core-go: skipped (go ${goversion:-of unknown version} is older than the 1.23 that core-go/go.mod needs; Debian 12: golang-go from bookworm-backports)"
elif (cd core-go && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=readonly \
        go build -trimpath -ldflags "-X main.vectorsDir=$vectors" -o "../$out/cipherbench-core-go" .); then
    echo "core-go: built $out/cipherbench-core-go ($goversion)"
else
    echo "core-go: build failed (the compiler's messages are above)" >&2
    status=1
fi

if ! command -v cargo >/dev/null 2>&1 || ! command -v rustc >/dev/null 2>&1; then
    echo "core-rust: skipped (no cargo/rustc on PATH; Debian's cargo (Debian 13) or cargo-web (Debian 12) builds it: scripts/install-deps.sh installs it)"
elif ! rustversion=$(rustc --version 2>/dev/null | awk '{print $2}') \
        || ! version_at_least "$rustversion" 1.85; then
    echo "core-rust: skipped (rustc ${rustversion:-of unknown version} is older than 1.85, the oldest that the crates pinned in Cargo.lock build with; Debian 12: cargo-web, not cargo)"
else
    features=() libs="ring, rustcrypto, aws-lc; tls: rustls-ring, rustls-aws-lc"
    if ! command -v cmake >/dev/null 2>&1; then
        # aws-lc-sys builds AWS-LC with cmake; ring and RustCrypto need only a C compiler.
        features=(--no-default-features) libs="ring, rustcrypto; tls: rustls-ring; aws-lc left out: no cmake"
    fi
    # The compiled dependencies (AWS-LC takes minutes) are kept in the user's cache, so a
    # second checkout or a clean clone rebuilds only the core itself.
    target=${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cipherbench/cargo-target}
    if (cd core-rust && CB_VECTORS_DIR="$vectors" CARGO_TARGET_DIR="$target" \
            cargo build --release --locked --quiet "${features[@]}" \
            && cp "$target/release/cipherbench-core-rust" "../$out/cipherbench-core-rust"); then
        echo "core-rust: built $out/cipherbench-core-rust (rustc $rustversion; $libs)"
    else
        echo "core-rust: build failed (cargo's messages are above)" >&2
        status=1
    fi
fi
exit $status
