#!/usr/bin/env bash
# Install what cipherbench needs and is missing: Debian packages, then a Python virtual
# environment (.venv) with cipherbench built and installed into it (pip builds the C core).
#   scripts/install-deps.sh           what the tool needs (scripts/debian-packages.txt)
#   scripts/install-deps.sh --test    and what only the tests need (debian-test-packages.txt,
#                                     the [test] Python extras)
#   scripts/install-deps.sh --bench   and what only bench/ needs (debian-bench-packages.txt)
# A list line "a | b" is satisfied by any of its packages; if none is installed, the first
# one this release has is installed. Works as the first command on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

lists=(scripts/debian-packages.txt)
extras=""
for arg in "$@"; do
    case $arg in
        --test) lists+=(scripts/debian-test-packages.txt); extras="[test]" ;;
        --bench) lists+=(scripts/debian-bench-packages.txt) ;;
        *) echo "install-deps.sh: unknown option $arg (known: --test, --bench)" >&2; exit 2 ;;
    esac
done

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

unmet=()  # lines none of whose packages is installed
while IFS= read -r line; do
    read -ra alts <<<"${line//|/ }"
    ok=""
    for p in "${alts[@]}"; do installed "$p" && { ok=1; break; }; done
    [ -n "$ok" ] || unmet+=("$line")
done < <(cat "${lists[@]}" | grep -v '^\s*#' | sed '/^\s*$/d')

if ((${#unmet[@]})); then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    missing=()
    for line in "${unmet[@]}"; do
        read -ra alts <<<"${line//|/ }"
        pick=""
        for p in "${alts[@]}"; do
            # A real package (not only a name others provide) with a version to install.
            # (not grep -q: its early exit would fail the pipeline under pipefail)
            if apt-cache show "$p" 2>/dev/null | grep '^Version:' >/dev/null; then
                pick=$p; break
            fi
        done
        [ -n "$pick" ] || { echo "install-deps.sh: this release has no package $line" >&2; exit 1; }
        missing+=("$pick")
    done
    echo "installing Debian packages: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q ".$extras"

# The measurement cores of other languages (core-go/, core-rust/) into build-extra/: built
# when Go or Rust is here, else skipped with one line each; cipherbench works without them.
if [ "${CIPHERBENCH_NO_EXTRA_CORES:-0}" != 1 ]; then
    scripts/build-extra-cores.sh || echo "extra cores: not built (see above); cipherbench works without them"
fi
