#!/usr/bin/env bash
# Install what cipherbench needs and is missing: Debian packages, then a Python virtual
# environment (.venv) with cipherbench built and installed into it (pip builds the C core).
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t wanted < <(grep -v '^\s*#' scripts/debian-packages.txt | sed '/^\s*$/d')
missing=()
for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing Debian packages: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q ".[test]"

# The measurement cores of other languages (core-go/, core-rust/) into build-extra/: built
# when Go or Rust is here, else skipped with one line each; cipherbench works without them.
if [ "${CIPHERBENCH_NO_EXTRA_CORES:-0}" != 1 ]; then
    scripts/build-extra-cores.sh || echo "extra cores: not built (see above); cipherbench works without them"
fi
