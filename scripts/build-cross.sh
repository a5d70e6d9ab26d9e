#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Cross-build the C core and its backends for another Debian architecture into build-ARCH/,
# installing what is missing first (as root, or through sudo): the architecture in dpkg, the
# cross toolchain, qemu-user-static and the target's development packages
# (scripts/debian-cross-packages.txt, each as NAME:ARCH).
#   scripts/build-cross.sh arm64          build build-arm64/core/cipherbench-core and its
#                                         library modules in build-arm64/core/modules/
#   scripts/build-cross.sh arm64 --test   and run the C unit tests and `kat` under qemu-user
# Architectures: arm64 (cross/arm64.ini), armhf (cross/armhf.ini). Debian 12 or later.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/build-cross.sh ARCH [--test]   (ARCH: arm64, armhf)"
arch=${1:-}
test=""
case $arch in
    arm64) triplet=aarch64-linux-gnu; qemu=qemu-aarch64-static; binfmt=qemu-aarch64 ;;
    armhf) triplet=arm-linux-gnueabihf; qemu=qemu-arm-static; binfmt=qemu-arm ;;
    "") echo "$usage" >&2; exit 2 ;;
    *) echo "build-cross.sh: unknown architecture '$arch'; known: arm64, armhf" >&2; exit 2 ;;
esac
shift
for arg in "$@"; do
    case $arg in
        --test) test=1 ;;
        *) echo "build-cross.sh: unknown option $arg (known: --test)" >&2; exit 2 ;;
    esac
done
command -v dpkg >/dev/null || { echo "build-cross.sh: needs Debian's dpkg and apt (multiarch)" >&2; exit 1; }

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
t_start=$SECONDS
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

if ! dpkg --print-foreign-architectures | grep -x "$arch" >/dev/null && [ "$(dpkg --print-architecture)" != "$arch" ]; then
    echo "build-cross.sh: adding the $arch architecture to dpkg" >&2
    $SUDO dpkg --add-architecture "$arch"
    $SUDO apt-get update -qq
fi

root=$PWD/build-$arch-root
# A development package that is not "Multi-Arch: same" (Debian 12: libgcrypt20-dev,
# libgpg-error-dev, libbotan-2-dev, libwolfssl-dev) cannot be installed beside the build
# machine's own: installing it would remove the native one. Such packages are unpacked into
# build-ARCH-root/ instead, their .pc files pointed there; their run-time libraries are
# "Multi-Arch: same" and installed as usual.
# (not grep -q: its early exit would fail the pipeline under pipefail: apt-cache's SIGPIPE)
multiarch_same() { apt-cache show "$1" 2>/dev/null | grep -x 'Multi-Arch: same' >/dev/null; }

# Lines none of whose packages is installed (or unpacked); of those, the first package the
# release has.
unmet=()
for p in "gcc-$triplet" "g++-$triplet" qemu-user-static; do installed "$p" || unmet+=("$p"); done
while IFS= read -r line; do
    read -ra alts <<<"${line//|/ }"
    ok=""
    for p in "${alts[@]}"; do
        { installed "$p:$arch" || [ -e "$root/.unpacked-$p" ]; } && { ok=1; break; }
    done
    [ -n "$ok" ] || unmet+=("$(printf "%s:$arch | " "${alts[@]}")")
done < <(grep -v '^\s*#' scripts/debian-cross-packages.txt | sed '/^\s*$/d')
if ((${#unmet[@]})); then
    missing=()
    unpack=()
    updated=""
    for line in "${unmet[@]}"; do
        read -ra alts <<<"${line//|/ }"
        pick=""
        for p in "${alts[@]}"; do
            if [ -z "$updated" ] && ! apt-cache show "$p" >/dev/null 2>&1; then
                $SUDO apt-get update -qq; updated=1
            fi
            apt-cache show "$p" >/dev/null 2>&1 && { pick=$p; break; }
        done
        [ -n "$pick" ] || { echo "build-cross.sh: no package of '$line' in this release" >&2; exit 1; }
        if [[ $pick == *:"$arch" ]] && ! multiarch_same "$pick" && installed "${pick%:*}"; then
            unpack+=("$pick")
            # its run-time libraries, installed (the -dev ones it needs are in the list too)
            while read -r dep; do
                [[ $dep == *-dev:* ]] || missing+=("$dep")
            done < <(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
                     --no-replaces --no-enhances "$pick" | awk '$1 == "Depends:" && $2 !~ /^</ {print $2}')
        else
            missing+=("$pick")
        fi
    done
    if ((${#missing[@]})); then
        echo "build-cross.sh: installing ${missing[*]}" >&2
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-remove "${missing[@]}"
    fi
    if ((${#unpack[@]})); then
        echo "build-cross.sh: unpacking ${unpack[*]} into $root (they would replace this machine's own)" >&2
        mkdir -p "$root/debs"
        (cd "$root/debs" && apt-get download -q "${unpack[@]}")
        for p in "${unpack[@]}"; do
            dpkg-deb -x "$root"/debs/"${p%:*}"_*_"$arch".deb "$root"
            touch "$root/.unpacked-${p%:*}"
        done
        # .pc files: the prefix is the unpacked tree; the .so links point at the installed
        # run-time libraries.
        # (Debian puts an architecture's own headers in include/TRIPLET, on the compiler's
        # path only under /usr.)
        sed -i -e "s|^prefix=/usr\$|prefix=$root/usr|" \
            -e "s|^Cflags:|Cflags: -I$root/usr/include/$triplet|" "$root/usr/lib/$triplet/pkgconfig/"*.pc
        for l in "$root/usr/lib/$triplet/"*.so; do
            [ -e "$l" ] || ln -sfn "/usr/lib/$triplet/$(basename "$(readlink "$l")")" "$l"
        done
    fi
fi

echo "build-cross.sh: the $arch packages are there ($((SECONDS - t_start)) s)" >&2
t_build=$SECONDS
# The unpacked tree's .pc files first, then the architecture's own (cross/ARCH.ini).
dir=build-$arch
mkdir -p "$root/usr/lib/$triplet/pkgconfig"
cat > "$root/cross.ini" <<INI
[properties]
pkg_config_libdir = ['$root/usr/lib/$triplet/pkgconfig', '/usr/lib/$triplet/pkgconfig', '/usr/share/pkgconfig']
INI
if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" --cross-file "cross/$arch.ini" --cross-file "$root/cross.ini" >/dev/null
else
    meson setup "$dir" --cross-file "cross/$arch.ini" --cross-file "$root/cross.ini" -Dbotan=disabled
fi
meson compile -C "$dir"
echo "build-cross.sh: built $dir/core/cipherbench-core and its modules ($(cd "$dir/core/modules" && echo *.so)) for $arch in $((SECONDS - t_build)) s" >&2

[ -n "$test" ] || exit 0
# run_check (the tests' harness, built for $arch) starts the core, and the core executes
# itself again for --no-hw: under qemu-user that needs the kernel to run $arch programs
# itself, through binfmt_misc (registered here as root when it is not).
if [ ! -e "/proc/sys/fs/binfmt_misc/$binfmt" ] && [ "$(id -u)" -eq 0 ] && [ -f "/usr/lib/binfmt.d/$binfmt.conf" ]; then
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || true
    # (the entry may be there once mounted: registrations are the kernel's, not the root's)
    [ -e /proc/sys/fs/binfmt_misc/register ] && [ ! -e "/proc/sys/fs/binfmt_misc/$binfmt" ] &&
        cat "/usr/lib/binfmt.d/$binfmt.conf" > /proc/sys/fs/binfmt_misc/register || true
fi
if [ ! -e "/proc/sys/fs/binfmt_misc/$binfmt" ]; then
    echo "build-cross.sh: the kernel cannot run $arch programs (no binfmt_misc entry $binfmt): run --test as root, or register /usr/lib/binfmt.d/$binfmt.conf" >&2
    exit 1
fi
t0=$SECONDS
preamble=$("$qemu" "$dir/core/cipherbench-core" list --lib openssl)
echo "build-cross.sh: under $qemu: ${preamble%%$'\n'*}" | cut -c1-400 >&2
# Every test of the build under qemu (meson's exe_wrapper) but the `time` suite, which holds
# a bench of the build machine's own speed to a bound (3 s) that emulation is not held to.
# The `kat` suite is `cipherbench-core kat`: every library's vectors, and every row's
# differential across the libraries that have it, each once.
meson test -C "$dir" --no-suite time --print-errorlogs --timeout-multiplier 3
echo "build-cross.sh: $arch tests passed under $qemu in $((SECONDS - t0)) s (the \`time\` suite left out: it bounds the speed of a native build)" >&2
