#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fresh Debian/Ubuntu machine to first answer: install what is missing (Debian packages, a
# Python virtual environment with cipherbench and its C core), then run the default benchmark.
# Arguments are passed to `cipherbench run` (e.g. scripts/setup.sh --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
exec .venv/bin/cipherbench run "$@"
