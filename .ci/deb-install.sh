#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages in DIR installed with apt on a fresh Debian (their dependencies and
# recommendations from the archive, nothing by hand), then used as a user would: the man
# pages are there, `cipherbench list`, `cipherbench run --quick` and `cipherbench advise
# --for ssh` run as a plain user, and the run is in the history.
#   .ci/deb-install.sh DIR    (as root: .ci/run runs it in a fresh root)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(cd "${1:?usage: .ci/deb-install.sh DIR}" && pwd)
.ci/apt-get.sh update
debs=("$dir"/cipherbench_*.deb "$dir"/cipherbench-core_*.deb)
go_core=$(ls "$dir"/cipherbench-core-go_*.deb 2>/dev/null || true)  # not built on Debian 12
[ -z "$go_core" ] || debs+=("$go_core")
.ci/apt-get.sh install -y "${debs[@]}"
dpkg-query -W 'cipherbench*'
for page in cipherbench cipherbench-core; do
    test -f "/usr/share/man/man1/$page.1.gz" || { echo "deb-install: no man page $page(1)" >&2; exit 1; }
done
# from the package, not from this checkout
[ "$(command -v cipherbench)" = /usr/bin/cipherbench ]
useradd --create-home user
as_user() { runuser -u user -- env -C /home/user HOME=/home/user "$@"; }
as_user cipherbench --version
as_user cipherbench list >/tmp/list.txt
head -n 20 /tmp/list.txt
if [ -n "$go_core" ]; then  # the Go core found on PATH, its known answers checked
    as_user cipherbench list --lib go >/tmp/list-go.txt  # whole: head would close its pipe
    head -n 12 /tmp/list-go.txt
    grep -q '^│ go ' /tmp/list.txt || { echo "deb-install: cipherbench list has no library go" >&2; exit 1; }
fi
as_user cipherbench run --quick
as_user cipherbench advise --for ssh
as_user cipherbench history
# the run and the ssh measurement advise made are stored, complete, with results
as_user cipherbench history --json | python3 -c '
import json, sys
runs = {r["command"]: r for r in json.load(sys.stdin)["runs"]}
for command in ("run", "ssh"):
    r = runs.get(command)
    if not r or r["status"] != "complete" or not r["results"]:
        sys.exit(f"deb-install: no complete {command} with results in the history: {r}")
'
echo "deb-install: passed"
