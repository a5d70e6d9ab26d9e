#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One command on a fresh Debian (bookworm: 12, trixie: 13): a minimal debootstrap root
# filesystem holding a clean clone of this checkout's HEAD at /ci/cipherbench (and ../shared
# beside it when there is one), with nothing installed but what the project's scripts install.
#   .ci/debian-root.sh [--share DIR] SUITE COMMAND
# COMMAND runs in /ci/cipherbench as root, through bash -c; --share binds the machine's DIR
# (read and write) at /ci/share, so that one root can hand a file (a .deb) to the next.
#   .ci/debian-root.sh --base-only SUITE   makes the cached base and stops.
#
# The base (debootstrap --variant=minbase, nothing else) is made once per machine and kept as a
# tarball in $CACHE; every run unpacks a fresh copy into a temporary directory under $CACHE,
# removed at the end (delete the tarball to make the base anew, e.g. after a point release;
# packages installed later come from the current index either way). The root filesystem gets the machine's CA certificates, pip settings
# (/etc/pip.conf, PIP_* variables, the PIP_FIND_LINKS directory), apt Acquire settings (no package's) and
# DNS, so it reaches the same package indexes. Every exit path unmounts what was mounted,
# ends what was started inside, and removes the temporary directory. Needs root.
set -euo pipefail

share="" base_only=""
while [ $# -gt 0 ]; do
    case $1 in
        --share) share=$(cd "$2" && pwd); shift 2 ;;
        --base-only) base_only=1; shift ;;
        *) break ;;
    esac
done
SUITE=${1:?usage: .ci/debian-root.sh [--share DIR] SUITE COMMAND (SUITE: bookworm or trixie)}
case $SUITE in
    bookworm|trixie) ;;
    *) echo "ci: unknown suite $SUITE (known: bookworm, trixie)" >&2; exit 2 ;;
esac
if [ -z "$base_only" ]; then
    COMMAND=${2:?usage: .ci/debian-root.sh [--share DIR] SUITE COMMAND}
fi
MIRROR=${CIPHERBENCH_CI_MIRROR:-http://deb.debian.org/debian}
CACHE=${CIPHERBENCH_CI_CACHE:-/var/cache/cipherbench-ci}
BASE=$CACHE/$SUITE-minbase.tar.zst
repo=$(cd "$(dirname "$0")/.." && pwd)

say() { echo "ci[$SUITE]: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (debootstrap, chroot, mount)"; exit 2; }
for tool in git zstd; do
    command -v "$tool" >/dev/null || {
        say "installing $tool"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool" >/dev/null ||
            { say "needs $tool (apt-get install $tool)"; exit 2; }
    }
done
mkdir -p "$CACHE"

make_base() {
    command -v debootstrap >/dev/null || {
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
    }
    local tmp=$CACHE/$SUITE-minbase.new
    rm -rf --one-file-system "$tmp"
    say "making the base root filesystem (debootstrap --variant=minbase $SUITE $MIRROR)"
    debootstrap --variant=minbase "$SUITE" "$tmp" "$MIRROR" >"$CACHE/$SUITE-debootstrap.log" ||
        { say "debootstrap failed: see $CACHE/$SUITE-debootstrap.log"; rm -rf --one-file-system "$tmp"; exit 1; }
    rm -f "$tmp"/var/cache/apt/archives/*.deb
    tar -C "$tmp" --zstd -cf "$BASE.part" . && mv "$BASE.part" "$BASE"
    rm -rf --one-file-system "$tmp"
}
[ -f "$BASE" ] || make_base
[ -z "$base_only" ] || exit 0

work=$(mktemp -d "$CACHE/run.XXXXXX")
root=$work/root
mounted=()

cleanup() {
    local rc=$? p i
    trap - EXIT INT TERM
    # Whatever the tests left running inside (a process's root is the chroot's root).
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -KILL "${p#/proc/}" 2>/dev/null
    done
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -R "${mounted[i]}" 2>/dev/null || umount -R -l "${mounted[i]}" 2>/dev/null || true
    done
    if findmnt -rn -o TARGET | grep -q "^$work/"; then
        say "still mounted under $work, left in place:"; findmnt -rn -o TARGET | grep "^$work/" >&2
        exit 1
    fi
    rm -rf --one-file-system "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bind() { # source, target inside the root, mount options...
    local src=$1 dst=$root$2; shift 2
    mkdir -p "$dst"
    mount "$@" "$src" "$dst"
    mounted+=("$dst")
}

say "unpacking a fresh base into $root"
mkdir -p "$root"
tar -C "$root" --zstd -xf "$BASE"

# Mounts: the root itself (`ip netns exec` remounts / as a slave, so / must be a mount
# point), the kernel's views, a private /run (sshd's privilege separation, ip netns).
bind "$root" / --bind
bind proc /proc -t proc
bind /sys /sys --rbind
mount --make-rslave "$root/sys"
bind /dev /dev --rbind
mount --make-rslave "$root/dev"
bind tmpfs /run -t tmpfs -o mode=0755

# The machine's package-index settings, so apt and pip inside reach what they reach here.
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    mkdir -p "$root/etc/ssl/certs"
    cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
fi
if [ -d /usr/local/share/ca-certificates ]; then  # kept by update-ca-certificates inside
    mkdir -p "$root/usr/local/share"
    cp -rL /usr/local/share/ca-certificates "$root/usr/local/share/"
fi
[ -f /etc/pip.conf ] && cp -L /etc/pip.conf "$root/etc/pip.conf"
# Only the machine's own files: a package's conffile (appstream's 50appstream) would stand in
# the root unowned, and dpkg, installing that package there, stops at its conffile question.
for f in /etc/apt/apt.conf.d/*; do
    grep -q '^[[:space:]]*Acquire' "$f" 2>/dev/null || continue
    dpkg-query -S "$f" >/dev/null 2>&1 || cp -L "$f" "$root/etc/apt/apt.conf.d/"
done
[ -z "$share" ] || bind "$share" /ci/share --bind
if [ -n "${PIP_FIND_LINKS:-}" ] && [ -d "$PIP_FIND_LINKS" ]; then
    bind "$PIP_FIND_LINKS" "$PIP_FIND_LINKS" --bind -o ro
fi
# A chroot runs no init: packages must not start their services (sshd on port 22) here.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

# A clean clone of what is committed here, and ../shared beside it as in a checkout.
head=$(git -C "$repo" rev-parse HEAD)
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ] ||
    say "note: uncommitted changes in $repo are not tested (the clone has $head)"
mkdir -p "$root/ci"
git clone -q "$repo" "$root/ci/cipherbench"
git -C "$root/ci/cipherbench" checkout -q --detach "$head"
[ -d "$repo/../shared" ] && cp -r "$repo/../shared" "$root/ci/shared"

env=(HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
while IFS= read -r v; do env+=("$v"); done < <(env | grep '^PIP_' || true)
say "running \`$COMMAND\` in Debian $(cat "$root/etc/debian_version") at $head"
# In the background so that a TERM reaches the trap at once, not when the tests end; as a
# job of its own (set -m), since a plain background command ignores SIGINT, and the tests
# send SIGINT to the commands they run.
set -m
chroot "$root" /usr/bin/env -i "${env[@]}" /bin/bash -c "cd /ci/cipherbench && $COMMAND" \
    </dev/null &
wait $!
say "passed"
