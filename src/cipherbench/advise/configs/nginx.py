# SPDX-License-Identifier: GPL-3.0-or-later
"""nginx (with OpenSSL): ssl_ciphers for TLS 1.2, ssl_conf_command Ciphersuites for TLS 1.3."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.tlsnames import openssl_lines


def lines(ctx: Context) -> list[ConfigLine]:
    """The ``server { }`` or ``http { }`` directives."""
    out = [comment("nginx.conf, in http { } or server { } (ssl_conf_command needs nginx "
                   ">= 1.19.4)"),
           ConfigLine("ssl_protocols TLSv1.2 TLSv1.3;", ("literal", "nginx directive")),
           ConfigLine("ssl_prefer_server_ciphers on;", ("literal", "nginx directive"))]
    out += openssl_lines(ctx, "ssl_ciphers {};", "ssl_conf_command Ciphersuites {};")
    return out
