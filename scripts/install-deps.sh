#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install what cipherbench needs and is missing: Debian packages, then a Python virtual
# environment (.venv) with cipherbench built and installed into it (pip builds the C core),
# then the Go and Rust cores (scripts/build-extra-cores.sh).
#   scripts/install-deps.sh           what the tool needs (scripts/debian-packages.txt) and
#                                     the Go and Rust cores' toolchains (debian-core-packages.txt)
#   scripts/install-deps.sh --test    and what only the tests need (debian-test-packages.txt,
#                                     the [test] Python extras)
#   scripts/install-deps.sh --bench   and what only bench/ needs (debian-bench-packages.txt)
# A list line "a | b" is satisfied by any of its packages; if none is installed, the first
# one this release has is installed. Works as the first command on a fresh Debian 12 or 13
# (or a derivative). Installing packages needs root: as root it runs apt-get, as a user it
# asks sudo; where there is neither, it prints the one line to give an administrator and,
# when only the Go and Rust toolchains are missing, carries on without them.
# CIPHERBENCH_NO_EXTRA_CORES=1 leaves the Go and Rust cores (and their toolchains) out.
set -euo pipefail
cd "$(dirname "$0")/.."

needed=(scripts/debian-packages.txt)
optional=()  # what only the Go and Rust cores need: the tool works without it
[ "${CIPHERBENCH_NO_EXTRA_CORES:-0}" = 1 ] || optional=(scripts/debian-core-packages.txt)
extras=""
for arg in "$@"; do
    case $arg in
        --test) needed+=(scripts/debian-test-packages.txt); extras="[test]" ;;
        --bench) needed+=(scripts/debian-bench-packages.txt) ;;
        *) echo "install-deps.sh: unknown option $arg (known: --test, --bench)" >&2; exit 2 ;;
    esac
done

codename=$(. "${CIPHERBENCH_OS_RELEASE:-/etc/os-release}" 2>/dev/null && echo "${VERSION_CODENAME:-}") ||
    codename=""

# What to install for a package name where this release's own is too old for cipherbench:
# NAME/SUITE takes it from that suite of Debian's own (enabled below), "" leaves it out
# (another alternative of the line is taken). Several words name packages installed together:
# apt takes from a suite only the packages named with it, not what they depend on from it.
for_release() {
    case "$codename:$1" in
        # Go 1.19; backports: 1.23, whose golang-go needs the golang-src of the same suite
        bookworm:golang-go) echo "golang-go/bookworm-backports golang-src/bookworm-backports" ;;
        bookworm:cargo) echo "" ;;  # Rust 1.63; cargo-web (Debian 12's Rust for browsers): 1.85
        *) echo "$1" ;;
    esac
}

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

unmet_lines() { # list files...: the lines none of whose packages is installed
    local line p ok alts
    while IFS= read -r line; do
        read -ra alts <<<"${line//|/ }"
        ok=""
        for p in "${alts[@]}"; do installed "$p" && { ok=1; break; }; done
        [ -n "$ok" ] || echo "$line"
    done < <(cat "$@" | grep -v '^\s*#' | sed '/^\s*$/d')
}
mapfile -t unmet_needed < <(unmet_lines "${needed[@]}")
unmet_optional=()
((${#optional[@]})) && mapfile -t unmet_optional < <(unmet_lines "${optional[@]}")

# A real package (not only a name others provide) with a version to install; a name from a
# suite (NAME/SUITE) is taken as it is, apt says if that suite lacks it.
# (not grep -q: its early exit would fail the pipeline under pipefail)
has_package() { [[ $1 == */* ]] || apt-cache show "$1" 2>/dev/null | grep '^Version:' >/dev/null; }

pick() { # one list line: the package to install, or nothing when this release has none
    local alts p
    read -ra alts <<<"${1//|/ }"
    for p in "${alts[@]}"; do
        p=$(for_release "$p")
        [ -n "$p" ] && has_package "$p" && { echo "$p"; return; }
    done
    return 0
}

first() { # one list line: its first package for this release (apt's lists may be empty here)
    local alts p
    read -ra alts <<<"${1//|/ }"
    for p in "${alts[@]}"; do
        p=$(for_release "$p")
        [ -n "$p" ] && { echo "$p"; return; }
    done
    return 0
}

suites_needed() { # packages...: the suites (NAME/SUITE) they come from
    local p
    for p in "$@"; do [[ $p == */* ]] && echo "${p#*/}"; done | sort -u
}

suite_enabled() { apt-cache policy 2>/dev/null | grep " $1/main " >/dev/null; }

# The source line of a suite of Debian's own, on the mirror this release's packages come from.
suite_line() {
    local mirror
    mirror=$(apt-cache policy 2>/dev/null | awk -v s="$codename/main" '$3 == s && $2 ~ /^https?:/ { print $2; exit }')
    echo "deb ${mirror:-http://deb.debian.org/debian} $1 main"
}

# Who installs: root itself, else sudo (it may ask for the password), else nobody here.
SUDO=none
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
fi

if ((${#unmet_needed[@]} + ${#unmet_optional[@]})); then
    if [ "$SUDO" != none ]; then
        $SUDO apt-get update -qq
    fi
    missing=() missing_optional=()
    for line in "${unmet_needed[@]}"; do
        p=$(pick "$line")
        # without root apt's lists cannot be updated: an administrator's apt will say
        [ -n "$p" ] || [ "$SUDO" != none ] || p=$(first "$line")
        [ -n "$p" ] || { echo "install-deps.sh: this release has no package $line" >&2; exit 1; }
        read -ra words <<<"$p"
        missing+=("${words[@]}")
    done
    for line in "${unmet_optional[@]}"; do
        p=$(pick "$line")
        [ -n "$p" ] || [ "$SUDO" != none ] || p=$(first "$line")
        if [ -n "$p" ]; then read -ra words <<<"$p"; missing_optional+=("${words[@]}")
        else echo "install-deps.sh: this release has no package $line (the core that needs it is left out)"; fi
    done
    all=("${missing[@]}" "${missing_optional[@]}")
    mapfile -t suites < <(suites_needed "${all[@]}")
    if [ "$SUDO" != none ]; then
        for s in "${suites[@]}"; do
            suite_enabled "$s" && continue
            file=/etc/apt/sources.list.d/$s.list
            echo "enabling $s in $file (Debian's own; apt takes from it only what is named with /$s)"
            suite_line "$s" | $SUDO tee "$file" >/dev/null
            $SUDO apt-get update -qq
        done
        if ((${#all[@]})); then
            echo "installing Debian packages: ${all[*]}"
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${all[@]}"
        fi
    elif ((${#all[@]})); then
        # Nobody here may install: the one line for an administrator (as root).
        cmd=""
        for s in "${suites[@]}"; do
            suite_enabled "$s" || cmd+="echo '$(suite_line "$s")' > /etc/apt/sources.list.d/$s.list && "
        done
        cmd+="apt-get update && apt-get install --no-install-recommends ${all[*]}"
        echo "install-deps.sh: Debian packages are missing and installing them needs root (this is" >&2
        echo "user $(id -un), without sudo); ask an administrator to run, as root:" >&2
        echo "  $cmd" >&2
        if ((${#missing[@]})); then
            echo "install-deps.sh: then run $0 again (cipherbench needs: ${missing[*]})" >&2
            exit 1
        fi
        echo "install-deps.sh: carrying on without them: the Go and Rust cores need only those"
    fi
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
