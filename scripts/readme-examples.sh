#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's example outputs, from real runs on this machine: each command's whole output
# goes to docs/examples/NAME.txt with the machine, the load and the time it took, and the
# README's block between "<!-- example NAME -->" and "<!-- /example -->" is rewritten from it.
# Rerun after a change to what the commands print (a private database: nothing of yours is
# read or written).
#
#   scripts/readme-examples.sh            # every example
#   scripts/readme-examples.sh run-quick  # only these
set -eu
cd "$(dirname "$0")/.."
CB=${CIPHERBENCH:-.venv/bin/cipherbench}
PY=${PYTHON:-.venv/bin/python}
OUT=docs/examples
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
export CIPHERBENCH_DB="$work/results.sqlite" COLUMNS=100 NO_COLOR=1 PYTHONUNBUFFERED=1

machine() {
    model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    system=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME" || uname -s)
    echo "${model:-$(uname -m)}, $(nproc) CPUs, $system, kernel $(uname -r)"
}

# example NAME ARGS...: run `cipherbench ARGS...`, keep its output and how it ran
example() {
    name=$1; shift
    if [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $name "; then return 0; fi
    echo "example $name: cipherbench $*" >&2
    load0=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N)
    rc=0
    "$CB" "$@" >"$work/out" 2>&1 || rc=$?
    t1=$(date +%s.%N)
    load1=$(cut -d' ' -f1 /proc/loadavg)
    {
        echo "\$ cipherbench $*"
        cat "$work/out"
    } >"$OUT/$name.txt"
    took=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
    printf '%s\n' "cipherbench $*" "$took" "$load0" "$load1" "$(machine)" "$(date -u +%F)" \
        "$rc" >"$OUT/$name.meta"
}

ONLY="$*"
example run-quick run --quick --no-progress
example ssh ssh --via pipe --rounds 6 --size 32M \
    --ciphers aes128-gcm@openssh.com,aes256-gcm@openssh.com,chacha20-poly1305@openssh.com,aes128-ctr \
    --macs umac-128-etm@openssh.com
example advise-ssh advise --for ssh --no-measure
"$PY" scripts/readme_examples.py README.md "$OUT"
