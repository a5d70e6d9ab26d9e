# SPDX-License-Identifier: GPL-3.0-or-later
"""The measuring programs as the front end sees them: finding and talking to a core
(``core_client``), its typed records, the C, Go and Rust cores as one (``combined``), library
variants and their builds, and what each library offers."""
