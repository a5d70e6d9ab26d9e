# SPDX-License-Identifier: GPL-3.0-or-later
"""Cipher suites: names in IANA, OpenSSL and GnuTLS form, and a security grade.

The list comes from the core (``cipherbench-core tls --list``), so the front end and the core
never disagree on what a suite is. A suite's grade is the worst of its parts: the bulk cipher
(the catalog's grade), the record MAC, and the key exchange.
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherbench import catalog
from cipherbench.catalog import Grade

_ORDER = {g: i for i, g in enumerate(catalog.GRADES)}

_STATIC_RSA = Grade("legacy", "static RSA key exchange: no forward secrecy, removed in TLS 1.3",
                    "RFC 8446 section 1.2; RFC 9325 section 4.1")
_CCM8 = Grade("acceptable", "8-byte tag: a smaller forgery margin; not recommended by IANA",
              "RFC 8446 appendix B.4; IANA TLS Cipher Suites registry")
_MD5_MAC = Grade("legacy", "HMAC-MD5 record MAC: MD5 is not for new use", "RFC 6151")
_CBC_TLS = Grade("acceptable", "CBC with MAC-then-encrypt: padding-oracle and timing attacks "
                 "(Lucky Thirteen) need careful implementations", "RFC 7366; RFC 9325")
_AEAD_13 = Grade("recommended", "TLS 1.3 AEAD suite", "RFC 8446")
_AEAD_12 = Grade("recommended", "AEAD with ECDHE: forward secrecy", "RFC 9325 section 4.2")


@dataclass(frozen=True)
class Suite:
    """One cipher suite as ``cipherbench-core tls --list`` describes it."""

    iana: str
    proto: str            # "TLS1.3" | "TLS1.2"
    kx: str               # "any" | "ECDHE-RSA" | "RSA"
    cipher: str           # canonical bulk cipher name
    mac: str              # "aead" | "aead-8" | "hmac-sha1" | ...
    openssl: str
    gnutls: str
    legacy: bool = False

    @classmethod
    def from_record(cls, rec: dict) -> "Suite":
        """A ``suite`` record of the core's protocol."""
        return cls(rec["algo"], rec["proto"], rec["kx"], rec["cipher"], rec["mac"],
                   rec["openssl"], rec["gnutls"], bool(rec.get("legacy")))

    @property
    def grade(self) -> Grade:
        """The worst grade of cipher, MAC and key exchange."""
        parts = []
        alg = catalog.get(self.cipher)
        if self.mac == "aead":
            parts.append(_AEAD_13 if self.proto == "TLS1.3" else _AEAD_12)
        elif self.mac == "aead-8":
            parts.append(_CCM8)
        elif self.mac == "hmac-md5":
            parts.append(_MD5_MAC)
        else:
            parts.append(_CBC_TLS if alg is not None and alg.block > 1 else
                         Grade("acceptable", "stream cipher with an HMAC record MAC", "RFC 5246"))
        if self.kx == "RSA":
            parts.append(_STATIC_RSA)
        if alg is not None:
            parts.append(alg.grade)
        # The worst part decides; among equals, the first said (the TLS-specific reason).
        return max(parts, key=lambda g: _ORDER.get(g.level, 0))

    def names(self) -> dict[str, str]:
        """``{"iana": ..., "openssl": ..., "gnutls": ...}``."""
        return {"iana": self.iana, "openssl": self.openssl, "gnutls": self.gnutls}


def parse_list(records: list[dict]) -> list[Suite]:
    """The suites of a ``cipherbench-core tls --list`` stream, in the core's order."""
    return [Suite.from_record(r) for r in records if r.get("type") == "suite"]


def tls_libraries(records: list[dict]) -> list[str]:
    """The TLS libraries compiled into the core (the ``library`` records of ``--list``)."""
    return [r["lib"] for r in records if r.get("type") == "library"]


def resolve(names: list[str], known: list[Suite]) -> tuple[list[Suite], list[str]]:
    """Suites named by IANA, OpenSSL or GnuTLS name (case-insensitive), or ``tls1.3``,
    ``tls1.2``, ``legacy``, ``all``; returns (suites, unknown names)."""
    by = {}
    for s in known:
        for n in (s.iana, s.openssl, s.gnutls):
            by[n.lower()] = s
    out: list[Suite] = []
    unknown = []
    for name in names:
        key = name.strip().lower()
        if key == "all":
            group = list(known)
        elif key in ("tls1.3", "tls13"):
            group = [s for s in known if s.proto == "TLS1.3"]
        elif key in ("tls1.2", "tls12"):
            group = [s for s in known if s.proto == "TLS1.2"]
        elif key == "legacy":
            group = [s for s in known if s.legacy]
        elif key in by:
            group = [by[key]]
        else:
            unknown.append(name)
            continue
        for s in group:
            if s not in out:
                out.append(s)
    return out, unknown
