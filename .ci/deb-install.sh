#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages in DIR installed with apt on a fresh Debian (their dependencies and
# recommendations from the archive, nothing by hand), then used as a user would: the man
# page is there, `cipherbench run --quick` and `cipherbench advise --for ssh` run as a
# plain user.
#   .ci/deb-install.sh DIR    (as root: .ci/run runs it in a fresh root)
set -euo pipefail
dir=${1:?usage: .ci/deb-install.sh DIR}
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "$dir"/cipherbench*.deb >/dev/null
dpkg-query -W cipherbench cipherbench-core
test -f /usr/share/man/man1/cipherbench.1.gz
useradd --create-home user
as_user() { runuser -u user -- env -C /home/user HOME=/home/user "$@"; }
as_user cipherbench --version
as_user cipherbench list >/tmp/list.txt
head -n 20 /tmp/list.txt
as_user cipherbench run --quick
as_user cipherbench advise --for ssh
as_user cipherbench history
