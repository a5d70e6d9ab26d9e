# SPDX-License-Identifier: GPL-3.0-or-later
"""The TLS scenario: the real record layer and handshakes of OpenSSL and GnuTLS.

``suites``: the cipher suites the core knows (``cipherbench-core tls --list``), their names
in every form and their security grade. ``core_tls``: runs ``cipherbench-core tls`` per library,
repeats points until stable and stores every result as scenario ``tls``. ``loopback``: the
same suites through ``openssl s_server``/``s_client`` over TCP on 127.0.0.1, to show what the
kernel's socket path adds. ``tables``: stored results to ranked tables. ``scenario``: the
interface the registry and the CLI use (plan, estimate, measure, view, summary).
"""
