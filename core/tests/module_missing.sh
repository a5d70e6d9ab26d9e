#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# module_missing.sh CORE MODULES_DIR RUN_CHECK SCHEMA GONE_MODULE VICTIM OTHER MODULES_REL VECTOR
#                   ABI_MODULE PLAIN_LIBRARY
# The core over a copy of the build's modules where VICTIM's module cannot load: linked
# against a library that is not there (GONE_MODULE), a file that is no shared object, a
# module of another ABI, a shared object that is no module, no file at all. Every time, `list` names VICTIM's module as not loaded with the loader's reason
# and lists every other library, OTHER still measures, `kat` checks the others against VECTOR
# and says VICTIM was not checked, and `--lib VICTIM` is one line on stderr with that reason
# and exit 2. First, the installed layout: a copy of the core with
# its modules at MODULES_REL from it (as `meson install` lays them out) loads every one.
set -eu
core=$1 modules=$2 run_check=$3 schema=$4 gone=$5 victim=$6 other=$7 rel=$8 vector=$9
abi=${10} plain=${11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
fail() { echo "module_missing: $*" >&2; exit 1; }

# meson points the loader at the build's libcb_gone.so: a host without it has no such path
unset LD_LIBRARY_PATH
n_modules=$(ls "$modules"/*.so | wc -l)
case $rel in
    /*) ;;   # installed outside the executable's prefix: nothing relative to check
    *)
        mkdir -p "$tmp/inst/bin/$rel"
        cp "$core" "$tmp/inst/bin/"
        cp "$modules"/*.so "$tmp/inst/bin/$rel/"
        loaded=$(env -u CIPHERBENCH_MODULES "$tmp/inst/bin/$(basename "$core")" list | grep -c '"loaded":true' || true)
        [ "$loaded" -eq "$n_modules" ] || fail "the installed copy loaded $loaded of $n_modules modules"
        rm -rf "$tmp/inst" ;;
esac

cp "$modules"/*.so "$tmp"/
CIPHERBENCH_MODULES=$tmp
export CIPHERBENCH_MODULES

check() {   # $1: a piece of the reason the loader must give
    "$run_check" --schema "$schema" --exit 0 --has module --has library --has algorithm \
        -- "$core" list || fail "list is not a valid stream"
    out=$("$core" list)
    echo "$out" | grep "\"type\":\"module\",\"lib\":\"$victim\"" > "$tmp/victim" \
        || fail "no module record for $victim"
    grep -q '"loaded":false' "$tmp/victim" || fail "$victim loaded: $(cat "$tmp/victim")"
    grep -q "$1" "$tmp/victim" || fail "$victim's reason lacks '$1': $(cat "$tmp/victim")"
    ! echo "$out" | grep -q "\"type\":\"library\",\"lib\":\"$victim\"" \
        || fail "$victim listed as a library"
    libs=$(echo "$out" | grep -c '"type":"library"')
    # every other module's library, and ref
    [ "$libs" -eq "$n_modules" ] || fail "$libs libraries listed, want $n_modules"
    "$run_check" --schema "$schema" --exit 0 --has point --lacks error \
        -- "$core" bench --lib "$other" --algo sha256 --op hash --sizes 64 --samples 2 \
        --min-sample-ms 0.2 || fail "$other does not measure"
    err=$("$core" kat --no-differential --vectors "$vector" 2>&1 >/dev/null) || fail "kat: $err"
    case $err in
        *"warning: $victim not checked: its module did not load: "*"$1"*) ;;
        *) fail "kat does not say $victim was not checked: $err" ;;
    esac
    for cmd in "bench --lib $victim --algo sha256 --op hash" "list --lib $victim" "kat --lib $victim" \
               "serve --lib $victim"; do
        # shellcheck disable=SC2086
        "$run_check" --schema "$schema" --exit 2 --stderr-lines 1 -- "$core" $cmd </dev/null \
            || fail "$cmd: not one line and exit 2"
        # shellcheck disable=SC2086
        err=$("$core" $cmd 2>&1 >/dev/null </dev/null || true)
        case $err in
            *"library '$victim' is not available here: its module did not load: "*"$1"*) ;;
            *) fail "$cmd: $err" ;;
        esac
    done
}

# A module whose library the loader cannot find (the library removed from the host).
cp "$gone" "$tmp/$victim.so"
check "libcb_gone.so: cannot open shared object file"
# A file in the module's place that the loader refuses.
printf 'not a shared object\n' > "$tmp/$victim.so"
check "$victim.so: "
# A module built for another module ABI.
cp "$abi" "$tmp/$victim.so"
check "$victim.so was built for module ABI "
# A shared object that is no module.
cp "$plain" "$tmp/$victim.so"
check "$victim.so is not a cipherbench module (no cipherbench_module symbol)"
# No module file at all.
rm "$tmp/$victim.so"
check "no module $victim.so in $tmp"
echo "module_missing: $victim left out five ways, the other $((n_modules - 1)) listed, $other measured"
