# SPDX-License-Identifier: GPL-3.0-or-later
"""The catalog covers every algorithm of the core and grades them with reasons."""
import re
from pathlib import Path

import pytest

from cipherbench import catalog

ALGORITHMS_C = Path(__file__).resolve().parents[1] / "core" / "algorithms.c"


def core_names():
    text = ALGORITHMS_C.read_text()
    return re.findall(r'^\s*\{"([a-z0-9-]+)",\s*CB_([A-Z]+)', text, re.M)


@pytest.mark.skipif(not ALGORITHMS_C.exists(), reason="core sources not beside the tests")
def test_every_core_algorithm_is_in_the_catalog_with_its_kind():
    names = core_names()
    assert len(names) > 50
    for name, kind in names:
        entry = catalog.get(name)
        assert entry is not None, name
        assert entry.kind == kind.lower(), name


def test_no_ecb_checksum_or_broken_design_is_recommended():
    """ECB, the CRCs and the old designs are measured, never recommended."""
    for a in catalog.ALGORITHMS.values():
        if a.name.endswith("-ecb") or a.name.startswith(("crc", "md4", "rc2", "gostr3411")):
            assert a.grade.level in ("legacy", "broken"), a.name


def test_key_wraps_are_graded_as_key_transport():
    """A key wrap is measured, and its grade says it is for keys, not bulk data: AES's (RFC 3394
    and 5649) and the same wraps over the other 128-bit ciphers libgcrypt takes (over ARIA, libgcrypt
    1.11's, the unpadded one alone); the CMS triple DES wrap (RFC 3217) as legacy."""
    wraps = [a for a in catalog.ALGORITHMS.values() if a.kind == "keywrap"]
    others = ("twofish-128", "twofish-256", "serpent-128", "serpent-192", "serpent-256", "seed",
              "camellia-128", "camellia-192", "camellia-256", "sm4")
    aes = {f"aes-{k}-{m}{inv}" for k in (128, 192, 256) for m in ("kw", "kwp") for inv in ("", "-inv")}
    assert {a.name for a in wraps} == aes | {f"{c}-{m}" for c in others for m in ("kw", "kwp")} \
        | {f"aria-{k}-kw" for k in (128, 192, 256)} | {"3des-cms-wrap"}
    for a in wraps:
        assert "not a bulk cipher" in a.grade.reason, a.name
        assert a.grade.level == ("legacy" if a.name == "3des-cms-wrap" else "acceptable"), a.name
    tdes = catalog.get("des3-wrap")
    assert tdes.name == "3des-cms-wrap" and "Sweet32" in tdes.grade.reason
    assert "RFC 3217" in tdes.grade.reference
    assert catalog.get("aes-128-wrap-pad").name == "aes-128-kwp"
    assert catalog.OPS["keywrap"] == ("encrypt", "decrypt")


def test_grades_have_reasons_and_references():
    for a in catalog.ALGORITHMS.values():
        assert a.grade.level in catalog.GRADES
        assert a.grade.reason
        if a.kind != "ref":
            assert a.grade.reference, a.name


@pytest.mark.parametrize("name,grade,ref", [
    ("rc4", "broken", "RFC 7465"), ("3des-cbc", "legacy", "CVE-2016-2183"),
    ("blowfish-cbc", "legacy", "CVE-2016-2183"), ("des-cbc", "broken", "FIPS 46-3"),
    ("md5", "broken", "RFC 6151"), ("sha1", "legacy", ""), ("aes-128-gcm", "recommended", ""),
    ("chacha20-poly1305", "recommended", "RFC 8439"), ("aes-128-cbc", "acceptable", ""),
    ("md4", "broken", "RFC 6150"), ("rc2-cbc", "broken", "RFC 2268"), ("crc32", "broken", ""),
    ("camellia-128-ecb", "broken", "SP 800-38A"), ("gostr3411-94", "legacy", "RFC 5831"),
    ("tiger", "legacy", ""), ("whirlpool", "legacy", ""), ("streebog-512", "acceptable", "RFC 6986"),
    ("idea-ctr", "legacy", "CVE-2016-2183"), ("seed-cbc", "acceptable", "RFC 4269"),
    ("aes-128-siv", "recommended", "RFC 5297"), ("aes-256-gcm-siv", "recommended", "RFC 8452"),
    ("gost28147-ecb", "broken", "RFC 5830"), ("aes-128-kw", "acceptable", "RFC 3394"),
    ("aes-256-kwp", "acceptable", "RFC 5649"),
    ("hmac-sha3-256", "recommended", "FIPS 202"), ("hmac-md4", "broken", "RFC 6150"),
    ("hmac-ripemd160", "acceptable", "RFC 2286"), ("hmac-streebog-512", "acceptable", "RFC 7836"),
    ("cmac-3des", "legacy", "SP 800-38B"), ("poly1305-aes", "acceptable", "FSE 2005"),
    ("xchacha20-poly1305", "recommended", "xchacha"), ("siphash-2-4", "acceptable", "SipHash"),
    ("kmac-256", "recommended", "SP 800-185"), ("md2", "broken", "RFC 6149"),
    ("keccak-kmac-128", "acceptable", "SP 800-185"), ("keccak-kmac-256", "acceptable", "FIPS 202"),
    ("3des-cms-wrap", "legacy", "RFC 3217"),
    ("gostr3411-94-test", "broken", "RFC 5831"), ("blake2b-mac", "recommended", "RFC 7693"),
    ("cmac-blowfish", "legacy", "SP 800-38B"), ("gmac-seed", "acceptable", "SP 800-38D"),
    ("gost28147-ctr", "broken", "RFC 5830"),
    ("rc2-40-cbc", "broken", "RFC 2268"), ("rc2-64-ofb", "broken", "RFC 2268"),
    ("rc2-cfb8", "broken", "RFC 2268"), ("des-ofb", "broken", "FIPS 46-3"),
    ("3des-2key-cbc", "broken", "SP 800-131A"), ("cast5-cfb8", "legacy", "CVE-2016-2183"),
    ("serpent-192-xts", "acceptable", "IEEE 1619"), ("twofish-192-ecb", "broken", "SP 800-38A"),
    ("aria-256-ctr", "acceptable", "RFC 5794"), ("sm4-cfb8", "acceptable", "GB/T 32907"),
    ("camellia-128-gcm", "acceptable", "SP 800-38D"), ("sm4-ccm", "acceptable", "RFC 8998"),
    ("seed-ocb", "acceptable", "RFC 7253"), ("aes-256-eax", "recommended", "FSE 2004"),
    ("aes-128-cbc-cts", "acceptable", "SP 800-38A"), ("aes-128-cfb1", "acceptable", "SP 800-38A"),
    ("3des-eax", "legacy", "CVE-2016-2183"), ("gost28147-eax", "broken", "RFC 5830"),
    ("xtea-cbc", "legacy", "CVE-2016-2183"), ("rc5-ctr", "broken", "Biryukov"),
    ("rc6-128-cbc", "acceptable", "RC6"), ("rc6-128-xts", "acceptable", "IEEE 1619"),
    ("rc6-128-gcm", "acceptable", "SP 800-38D"), ("skipjack-ofb", "broken", "SP 800-131A"),
    ("kasumi-cfb", "legacy", "TS 35.202"), ("noekeon-direct-ocb", "legacy", "NESSIE"),
    ("noekeon-direct-ecb", "broken", "SP 800-38A"), ("noekeon-ctr", "legacy", "NOEKEON"),
    ("safer-k64-cbc", "broken", "Knudsen"),
    ("aes-128-ccm-8", "acceptable", "RFC 6655"), ("rc2-gutmann-cbc", "broken", "RFC 2268"),
    ("rc4-40", "broken", "RFC 7465"), ("desx-cbc", "broken", "CRYPTO 1996"), ("md5-sha1", "legacy", "RFC 8996"),
    ("gost28147-cpa-cfb", "broken", "RFC 4357"), ("gost28147-tc26z-cnt", "broken", "RFC 4357"),
    ("magma-ctr-acpkm", "legacy", "RFC 8645"), ("kuznyechik-ctr-acpkm", "acceptable", "RFC 7801"),
    ("gost28147-tc26z-imit", "broken", "RFC 5830"), ("cmac-kuznyechik", "acceptable", "GOST R 34.13"),
    ("aes-128-kwp-inv", "acceptable", "SP 800-38F"),
    ("serpent-256-siv", "acceptable", "RFC 5297"), ("sm4-gcm-siv", "acceptable", "RFC 8452"),
    ("rc2-40-eax", "broken", "RFC 2268"), ("camellia-192-kwp", "acceptable", "RFC 5649"),
    ("gost28147-mesh-cfb", "broken", "RFC 4357"), ("gost28147-imit", "broken", "RFC 5830"),
    ("cmac-rc2", "broken", "SP 800-38B"), ("cmac-gost28147", "broken", "RFC 5830"),
    ("tiger2", "legacy", "FSE 1996"), ("tiger-be", "legacy", "FSE 1996"),
    ("crc32-rfc1510", "broken", "RFC 3961"),
    ("anubis-128-cbc", "legacy", "NESSIE final report"),
    ("anubis-128-gcm", "legacy", "Anubis"), ("anubis-128-ecb", "broken", "SP 800-38A"),
    ("khazad-ctr", "legacy", "Muller"), ("safer-plus-128-ocb", "legacy", "Kelsey"),
    ("aes-128-cbc-hmac-sha1", "legacy", "RFC 5246"), ("aes-256-cbc-hmac-sha256", "legacy", "AlFardan"),
    ("safer-sk64-cbc", "broken", "Knudsen"), ("safer-k128-ctr", "legacy", "Knudsen"),
    ("safer-sk128-ofb", "legacy", "CVE-2016-2183"), ("safer-sk64-r6-ecb", "broken", "SP 800-38A"),
    ("chc-aes128", "legacy", "HAC Algorithm 9.43"), ("hmac-chc-aes128", "legacy", "RFC 2104"),
    # OpenSSL 3.2's: GCM-SIV with the key size RFC 8452 leaves out, Keccak, SHA-256/192
    ("aes-192-gcm-siv", "acceptable", "RFC 8452"), ("keccak-256", "acceptable", "Keccak reference"),
    ("keccak-512", "acceptable", "FIPS 202"), ("sha256-192", "acceptable", "SP 800-208")])
def test_known_grades(name, grade, ref):
    a = catalog.get(name)
    assert a.grade.level == grade
    assert ref in a.grade.reference


def test_protocol_names():
    assert "chacha20-poly1305@openssh.com" in catalog.get("chacha20-poly1305").openssh
    assert catalog.get("aes-128-gcm").iana_tls[0] == "TLS_AES_128_GCM_SHA256"
    assert catalog.get("3des-cbc").openssl == "des-ede3-cbc"
    assert catalog.get("aes-256-cfb").gnupg == "AES256"
    assert catalog.get("arcfour").name == "rc4"       # alias


def test_match_names_globs_and_suggestions():
    # the glob takes every key size the catalog has, in catalog order
    assert catalog.match(["aes-*-gcm", "sha256"]) == ["aes-128-gcm", "aes-192-gcm", "aes-256-gcm",
                                                     "sha256"]
    assert catalog.match(["sha256", "sha256"]) == ["sha256"]
    with pytest.raises(catalog.NoMatch) as e:
        catalog.match(["aes-128-gmc"])
    assert "aes-128-gcm" in e.value.suggestions and not e.value.is_glob
    with pytest.raises(catalog.NoMatch) as e:
        catalog.match(["foo*"])
    assert e.value.is_glob
