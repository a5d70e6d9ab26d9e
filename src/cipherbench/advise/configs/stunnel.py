# SPDX-License-Identifier: GPL-3.0-or-later
"""stunnel (with OpenSSL): ``ciphers`` (TLS 1.2) and ``ciphersuites`` (TLS 1.3) in a service."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.tlsnames import openssl_lines


def lines(ctx: Context) -> list[ConfigLine]:
    """The service section's lines."""
    out = [comment("stunnel.conf, in the service section (ciphersuites needs stunnel >= 5.56 "
                   "with OpenSSL >= 1.1.1)"),
           ConfigLine("sslVersionMin = TLSv1.2", ("literal", "stunnel option")),
           ConfigLine("options = CIPHER_SERVER_PREFERENCE", ("literal", "stunnel option"))]
    out += openssl_lines(ctx, "ciphers = {}", "ciphersuites = {}")
    return out
