# SPDX-License-Identifier: GPL-3.0-or-later
"""The choices of each candidate family, with their names in every tool and their grade.

A candidate's grade is the weakest of its parts in the catalog (cipher, MAC); its rate comes
later from the evidence. Families:

- ``ssh``: an OpenSSH cipher (AEAD) or cipher + MAC;
- ``tls``: a TLS cipher suite (1.3 and 1.2), with its OpenSSL, GnuTLS and IANA names;
- ``gpg``: a ``gpg --cipher-algo`` (OpenPGP CFB with MDC), and age (ChaCha20-Poly1305);
- ``luks``: a ``cryptsetup --cipher`` spec with its key size.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench import catalog
from cipherbench.scenarios.luks.specs import ADIANTUM_GRADE, ADIANTUM_SPEC, SECTOR_SIZE

_UNKNOWN = catalog.Grade("unknown", "not in the catalog", "")


@dataclass(frozen=True)
class Candidate:
    """One choice. ``key`` is unique within the family; ``cipher``/``mac`` are catalog names
    (``mac`` None for AEADs); ``names`` holds the tool-specific names the configs need;
    ``available`` is False for a choice the installed tool no longer offers (shown for
    comparison, never put in a config line)."""

    family: str
    key: str
    label: str
    cipher: str
    mac: str | None
    aead: bool
    grade: catalog.Grade
    names: dict = field(default_factory=dict, compare=False, hash=False)
    available: bool = True
    note: str = ""


def worst_grade(*names: str | None) -> catalog.Grade:
    """The weakest catalog grade among the named algorithms (unknown names count as unknown,
    which no policy but legacy allows)."""
    grades = []
    for n in names:
        if not n:
            continue
        a = catalog.get(n)
        grades.append(a.grade if a else _UNKNOWN)
    if not grades:
        return _UNKNOWN
    order = list(catalog.GRADES) + ["unknown"]
    return max(grades, key=lambda g: order.index(g.level) if g.level in order else len(order))


# -- ssh --------------------------------------------------------------------------------------
#: MAC paired with a non-AEAD cipher when the store has no ssh measurement of that cipher.
DEFAULT_SSH_MAC = "hmac-sha2-256-etm@openssh.com"


def _openssh_map(kinds: tuple[str, ...]) -> dict[str, catalog.Algorithm]:
    return {n: a for a in catalog.ALGORITHMS.values() if a.kind in kinds for n in a.openssh}


def ssh_cipher_algo(name: str) -> catalog.Algorithm | None:
    """Catalog entry of an OpenSSH cipher name."""
    return _openssh_map(("aead", "cipher")).get(name)


def ssh_mac_algo(name: str) -> catalog.Algorithm | None:
    """Catalog entry of an OpenSSH MAC name."""
    return _openssh_map(("mac",)).get(name)


def ssh_candidate(cipher: str, mac: str | None, offered: bool = True) -> Candidate:
    """One OpenSSH cipher (+ MAC for a non-AEAD cipher)."""
    c = ssh_cipher_algo(cipher)
    aead = bool(c and c.kind == "aead") or cipher.startswith("chacha20-poly1305")
    m = None if aead or not mac else ssh_mac_algo(mac)
    grade = worst_grade(c.name if c else cipher, None if aead else (m.name if m else mac))
    note = "" if offered else "not offered by this OpenSSH"
    if not aead and mac and not mac.endswith("-etm@openssh.com"):
        note = (note + "; " if note else "") + "encrypt-and-MAC: prefer an -etm MAC"
    return Candidate("ssh", cipher if aead else f"{cipher}+{mac}",
                     cipher if aead else f"{cipher} + {mac}",
                     c.name if c else cipher, None if aead else (m.name if m else mac), aead,
                     grade, {"cipher": cipher, "mac": None if aead else mac},
                     available=offered, note=note)


def ssh_candidates(offered_ciphers: list[str] | None, measured: list[tuple[str, str | None]],
                   ) -> list[Candidate]:
    """Every OpenSSH cipher the catalog knows: those offered (``ssh -Q cipher``; None = all
    catalog names) with the MACs measured for them (``measured`` = (cipher, mac) pairs from
    the store) or ``DEFAULT_SSH_MAC``, and those no longer offered (one name each, for
    comparison)."""
    out: dict[str, Candidate] = {}
    seen_algo: set[str] = set()
    for name, algo in _openssh_map(("aead", "cipher")).items():
        offered = offered_ciphers is None or name in offered_ciphers
        if not offered and algo.name in seen_algo:
            continue
        seen_algo.add(algo.name)
        macs = [m for c, m in measured if c == name] or [DEFAULT_SSH_MAC]
        for mac in macs:
            cand = ssh_candidate(name, mac, offered)
            out.setdefault(cand.key, cand)
    for c, m in measured:  # measured combinations outside the catalog still show
        cand = ssh_candidate(c, m, True)
        out.setdefault(cand.key, cand)
    return list(out.values())


# -- tls --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Suite:
    """A TLS cipher suite: IANA name, TLS 1.3 or not, OpenSSL name, GnuTLS suite name (as
    ``gnutls-cli -l`` lists it), cipher and MAC (catalog names; MAC None for AEAD), the
    GnuTLS priority keywords of its cipher and MAC, and its key exchange."""

    iana: str
    tls13: bool
    openssl: str
    gnutls: str
    cipher: str
    mac: str | None
    gnutls_cipher: str
    gnutls_mac: str
    kx: str


def _s13(iana: str, cipher: str, gcipher: str) -> Suite:
    return Suite(iana, True, iana, iana, cipher, None, gcipher, "AEAD", "any")


#: The suites the advisor ranks. HMAC-SHA384 is graded and rated as HMAC-SHA512 (same SHA-512
#: compression function).
SUITES: tuple[Suite, ...] = (
    _s13("TLS_AES_128_GCM_SHA256", "aes-128-gcm", "AES-128-GCM"),
    _s13("TLS_AES_256_GCM_SHA384", "aes-256-gcm", "AES-256-GCM"),
    _s13("TLS_CHACHA20_POLY1305_SHA256", "chacha20-poly1305", "CHACHA20-POLY1305"),
    _s13("TLS_AES_128_CCM_SHA256", "aes-128-ccm", "AES-128-CCM"),
    Suite("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", False, "ECDHE-ECDSA-AES128-GCM-SHA256",
          "TLS_ECDHE_ECDSA_AES_128_GCM_SHA256", "aes-128-gcm", None, "AES-128-GCM", "AEAD",
          "ECDHE-ECDSA"),
    Suite("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", False, "ECDHE-RSA-AES128-GCM-SHA256",
          "TLS_ECDHE_RSA_AES_128_GCM_SHA256", "aes-128-gcm", None, "AES-128-GCM", "AEAD",
          "ECDHE-RSA"),
    Suite("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", False, "ECDHE-ECDSA-AES256-GCM-SHA384",
          "TLS_ECDHE_ECDSA_AES_256_GCM_SHA384", "aes-256-gcm", None, "AES-256-GCM", "AEAD",
          "ECDHE-ECDSA"),
    Suite("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", False, "ECDHE-RSA-AES256-GCM-SHA384",
          "TLS_ECDHE_RSA_AES_256_GCM_SHA384", "aes-256-gcm", None, "AES-256-GCM", "AEAD",
          "ECDHE-RSA"),
    Suite("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", False,
          "ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_CHACHA20_POLY1305",
          "chacha20-poly1305", None, "CHACHA20-POLY1305", "AEAD", "ECDHE-ECDSA"),
    Suite("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", False, "ECDHE-RSA-CHACHA20-POLY1305",
          "TLS_ECDHE_RSA_CHACHA20_POLY1305", "chacha20-poly1305", None, "CHACHA20-POLY1305",
          "AEAD", "ECDHE-RSA"),
    Suite("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", False, "ECDHE-RSA-AES128-SHA256",
          "TLS_ECDHE_RSA_AES_128_CBC_SHA256", "aes-128-cbc", "hmac-sha256", "AES-128-CBC",
          "SHA256", "ECDHE-RSA"),
    Suite("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", False, "ECDHE-RSA-AES256-SHA384",
          "TLS_ECDHE_RSA_AES_256_CBC_SHA384", "aes-256-cbc", "hmac-sha512", "AES-256-CBC",
          "SHA384", "ECDHE-RSA"),
    Suite("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", False, "ECDHE-RSA-AES128-SHA",
          "TLS_ECDHE_RSA_AES_128_CBC_SHA1", "aes-128-cbc", "hmac-sha1", "AES-128-CBC", "SHA1",
          "ECDHE-RSA"),
    Suite("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", False, "ECDHE-RSA-AES256-SHA",
          "TLS_ECDHE_RSA_AES_256_CBC_SHA1", "aes-256-cbc", "hmac-sha1", "AES-256-CBC", "SHA1",
          "ECDHE-RSA"),
    Suite("TLS_RSA_WITH_AES_128_CBC_SHA", False, "AES128-SHA", "TLS_RSA_AES_128_CBC_SHA1",
          "aes-128-cbc", "hmac-sha1", "AES-128-CBC", "SHA1", "RSA"),
    Suite("TLS_RSA_WITH_CAMELLIA_128_CBC_SHA", False, "CAMELLIA128-SHA",
          "TLS_RSA_CAMELLIA_128_CBC_SHA1", "camellia-128-cbc", "hmac-sha1", "CAMELLIA-128-CBC",
          "SHA1", "RSA"),
    Suite("TLS_RSA_WITH_3DES_EDE_CBC_SHA", False, "DES-CBC3-SHA", "TLS_RSA_3DES_EDE_CBC_SHA1",
          "3des-cbc", "hmac-sha1", "3DES-CBC", "SHA1", "RSA"),
    Suite("TLS_RSA_WITH_RC4_128_SHA", False, "RC4-SHA", "TLS_RSA_ARCFOUR_128_SHA1", "rc4",
          "hmac-sha1", "ARCFOUR-128", "SHA1", "RSA"),
    Suite("TLS_RSA_WITH_RC4_128_MD5", False, "RC4-MD5", "TLS_RSA_ARCFOUR_128_MD5", "rc4",
          "hmac-md5", "ARCFOUR-128", "MD5", "RSA"),
)


def suite_by_name(name: str) -> Suite | None:
    """A suite by IANA, OpenSSL or GnuTLS name (case-insensitive)."""
    n = name.strip().upper()
    for s in SUITES:
        if n in (s.iana.upper(), s.openssl.upper(), s.gnutls.upper()):
            return s
    return None


#: The suites of ``SUITES`` that Go's crypto/tls does not implement (its cipher_suites.go;
#: the Go core refuses them too, docs/protocol.md).
NOT_IN_GO = frozenset({"TLS_AES_128_CCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
                       "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA", "TLS_RSA_WITH_RC4_128_MD5"})


def tls_candidates(lib: str | None = None) -> list[Candidate]:
    """One candidate per suite (for ``lib="go"``, what crypto/tls lacks is unavailable)."""
    out = []
    for s in SUITES:
        if lib == "go" and s.iana in NOT_IN_GO:
            out.append(Candidate("tls", s.iana, s.iana, s.cipher, s.mac, s.mac is None,
                                 worst_grade(s.cipher, s.mac), {"suite": s}, available=False,
                                 note="not in Go's crypto/tls"))
            continue
        note = "TLS 1.3" if s.tls13 else "TLS 1.2"
        if s.kx == "RSA":
            note += "; RSA key exchange: no forward secrecy"
        if s.mac == "hmac-sha512":
            note += "; HMAC-SHA384 rated as HMAC-SHA512"
        label = s.iana if s.tls13 or lib == "go" else s.openssl   # Go takes IANA names
        out.append(Candidate("tls", s.iana, label, s.cipher,
                             s.mac, s.mac is None, worst_grade(s.cipher, s.mac),
                             {"suite": s}, note=note))
    return out


# -- gpg and age ------------------------------------------------------------------------------
def gpg_candidates(gpg_algos: list[str], age: bool) -> list[Candidate]:
    """``gpg --cipher-algo`` names (``gpg --version`` order) and age."""
    from cipherbench.scenarios.gpg.programs import GPG_TO_CFB
    from cipherbench.scenarios.gpg.tables import gpg_grade
    out = []
    for name in gpg_algos:
        cfb = GPG_TO_CFB.get(name.upper(), "")
        grade = gpg_grade("gnupg", name) or _UNKNOWN
        a = catalog.get(cfb) if cfb else None
        out.append(Candidate("gpg", name.upper(), f"gpg --cipher-algo {name.upper()}", cfb or name,
                             None, False, grade, {"gpg": name.upper(), "block": a.block if a else
                                                  None}, note="OpenPGP CFB + MDC"))
    if age:
        chacha = catalog.get("chacha20-poly1305")
        out.append(Candidate("gpg", "age", "age", "chacha20-poly1305", None, True,
                             chacha.grade if chacha else _UNKNOWN, {"age": True},
                             note="ChaCha20-Poly1305 in 64 KiB chunks"))
    return out


# -- luks -------------------------------------------------------------------------------------
_LUKS = (
    ("aes-xts-plain64", 512, "aes-256-xts", "cryptsetup's default for LUKS2"),
    ("aes-xts-plain64", 256, "aes-128-xts", ""),
    ("aes-cbc-essiv:sha256", 256, "aes-256-cbc", "CBC with ESSIV: older LUKS default"),
    ("aes-cbc-essiv:sha256", 128, "aes-128-cbc", "CBC with ESSIV: older LUKS default"),
    ("camellia-cbc-essiv:sha256", 256, "camellia-256-cbc", ""),
    ("twofish-cbc-essiv:sha256", 256, "twofish-256-cbc", ""),
    ("serpent-cbc-essiv:sha256", 256, "serpent-256-cbc", ""),
    (ADIANTUM_SPEC, 256, "adiantum", "wide-block; for CPUs without AES instructions"),
)


def luks_candidates() -> list[Candidate]:
    """``cryptsetup --cipher`` specs with their key sizes (bits), each formatted with
    ``--sector-size`` ``SECTOR_SIZE``."""
    return [Candidate("luks", f"{spec}:{bits}", f"{spec} --key-size {bits}", algo, None, False,
                      ADIANTUM_GRADE if spec == ADIANTUM_SPEC else worst_grade(algo),
                      {"cryptsetup": spec, "key_bits": bits, "xts": "xts" in spec,
                       "wide_block": spec == ADIANTUM_SPEC, "sector_size": SECTOR_SIZE},
                      note=note)
            for spec, bits, algo, note in _LUKS]
