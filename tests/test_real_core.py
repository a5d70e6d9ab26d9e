# SPDX-License-Identifier: GPL-3.0-or-later
"""The real cipherbench-core through the real CLI on a tiny selection (skipped, with the
reason, when the core is not built)."""

import pytest

from cipherbench.cores import core_client
from cipherbench.store import Store
from conftest import real_core


def test_real_core_measures_sanely(cli, env):
    core = real_core()
    inv = core_client.Core(core).list()
    lib = next((l for l in ("openssl", "nettle", "libgcrypt")
                if inv.supports(l, "3des-cbc", "encrypt")), None)
    if lib is None:
        pytest.skip("no library of this build has 3des-cbc")
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", lib, "--algo", "3des-cbc", "--op", "encrypt",
            "--sizes", "1024,16384", "--samples", "5", "--budget", "0", env_override=e)
    assert r.rc == 0, r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        assert run.status == "complete"
        pts = {(x.lib, x.algo, x.size): x for x in s.results(run.id) if x.metric == "ns_per_op"}
    for p in pts.values():
        assert p.median > 0 and p.n_samples >= 5 and p.ci_low <= p.median <= p.ci_high
    memcpy = pts[("ref", "memcpy", 16384)].median
    des3 = pts[(lib, "3des-cbc", 16384)].median
    assert memcpy < des3, "copying 16 KiB must be faster than encrypting it with 3DES"
    assert run.metadata["libraries"][lib]["version"]


def test_list_offered_names_only_rows_the_library_has():
    """Every offered algorithm the core says is measured is a row of that library; each
    record matches the protocol schema; libraries with an enumeration list something."""
    import json
    from pathlib import Path

    from cipherbench.cores import offered

    jsonschema = pytest.importorskip("jsonschema")
    core = core_client.Core(real_core())
    schema = json.loads((Path(__file__).resolve().parents[1] / "core" / "protocol" /
                         "schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)   # checked once, not per record
    jsonschema.Draft202012Validator.check_schema(schema)
    for rec in core.run_lines(["list", "--offered"]):
        validator.validate(rec)
    inv = core.list()
    offers = offered.gather(core)
    assert {o.lib for o in offers} == set(l for l in inv.libs() if l != "ref")
    for o in offers:
        rows = {r.algo for r in inv.rows(o.lib)}
        assert all(m.algo in rows for m in o.offered if m.algo), o.lib
        if o.enumerates:
            assert o.offered and len(o.missing) < len(o.offered)
    nettle = next((o for o in offers if o.lib == "nettle"), None)
    if nettle is not None:  # Nettle 3.8 lists aes128 with its CBC mode, which a row measures
        assert ("aes128/cbc", "aes-128-cbc") in {(m.name, m.algo) for m in nettle.offered}


def _version(text: str) -> tuple[int, ...]:
    """(1, 10, 1) from "1.10.1" (the leading numbers of a library's version string)."""
    import re
    m = re.search(r"(\d+(?:\.\d+)*)", text or "")
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def test_aes_key_wrap_is_measured_where_offered():
    """OpenSSL's and libgcrypt's AES key wraps (RFC 3394, and RFC 5649 with padding), and
    OpenSSL's CMS triple DES wrap (RFC 3217), are offered as kind keywrap and each is a row,
    so `list --missing` no longer names them."""
    from cipherbench.cores import offered

    offers = {o.lib: o for o in offered.gather(core_client.Core(real_core()))}
    want = {
        "openssl": {("AES-128-WRAP", "aes-128-kw"), ("AES-256-WRAP-PAD", "aes-256-kwp"),
                    ("DES3-WRAP", "3des-cms-wrap")},
        "libgcrypt": {("AES/AESWRAP", "aes-128-kw"), ("AES256/AESWRAP+EXTENDED", "aes-256-kwp")},
    }
    for lib, pairs in want.items():
        if lib not in offers:
            continue
        if lib == "libgcrypt" and _version(offers[lib].version) >= (1, 11):
            # libgcrypt 1.11's padded wrap fails RFC 5649's single-block case: not a row there
            pairs = {p for p in pairs if not p[1].endswith("-kwp")}
        got = {(m.name, m.algo) for m in offers[lib].offered if m.kind == "keywrap"}
        assert pairs <= got, (lib, sorted(got))
        assert not [m for m in offers[lib].missing if m.name in {n for n, _ in pairs}]


def test_openssls_tls_record_ciphers_are_measured_where_offered():
    """OpenSSL's stitched AES-CBC-HMAC-SHA1/SHA256 (TLS 1.1/1.2 records, AES-NI only) are rows
    wherever this OpenSSL offers them: their known answers pass, a size above one record is
    refused alone (bad_size), and with the AES instructions off the row is reported
    unsupported, never timed."""
    import json
    import subprocess

    from cipherbench.cores import offered

    core = real_core()
    offers = {o.lib: o for o in offered.gather(core_client.Core(core))}
    if "openssl" not in offers:
        pytest.skip("no openssl backend in this build")
    names = ("AES-128-CBC-HMAC-SHA1", "AES-256-CBC-HMAC-SHA1", "AES-128-CBC-HMAC-SHA256",
             "AES-256-CBC-HMAC-SHA256")
    got = {m.name: m.algo for m in offers["openssl"].offered if m.name in names}
    if not got:
        pytest.skip("this OpenSSL offers no stitched ciphers here (a CPU without AES-NI)")
    assert got == {n: n.lower() for n in names}

    def records(*args):
        out = subprocess.run([str(core), *args], capture_output=True, text=True, timeout=120)
        return [json.loads(line) for line in out.stdout.splitlines()]

    kats = [r for r in records("kat", "--lib", "openssl", "--no-differential")
            if r["type"] == "kat" and r["algo"] in got.values()]
    assert {r["algo"] for r in kats} == set(got.values())
    assert all(r["failed"] == 0 and r["passed"] > 0 for r in kats), kats
    for op in ("encrypt", "decrypt"):
        recs = records("bench", "--lib", "openssl", "--algo", "aes-128-cbc-hmac-sha1", "--op", op,
                       "--sizes", "1024,32768", "--samples", "3")
        assert [r["size"] for r in recs if r["type"] == "point"] == [1024]
        errors = [r for r in recs if r["type"] == "error"]
        assert [e["reason"] for e in errors] == ["bad_size"] and "32768" in errors[0]["message"]
        off = records("bench", "--no-hw", "--lib", "openssl", "--algo", "aes-256-cbc-hmac-sha256",
                      "--op", op, "--sizes", "1024", "--samples", "3")
        assert not [r for r in off if r["type"] == "point"]
        assert [r["reason"] for r in off if r["type"] == "error"] == ["unsupported"]


def test_macs_and_libsodium_primitives_are_measured_where_offered():
    """HMAC over every hash, CMAC and GMAC over the other ciphers and key sizes, Poly1305-AES
    and libsodium's other constructions are rows of the libraries that list them, so `list
    --missing` no longer names them."""
    from cipherbench.cores import offered

    offers = {o.lib: o for o in offered.gather(core_client.Core(real_core()))}
    want = {
        "libgcrypt": {("HMAC_SHA3_256", "hmac-sha3-256"), ("HMAC_RIPEMD160", "hmac-ripemd160"),
                      ("HMAC_STRIBOG512", "hmac-streebog-512"), ("HMAC_SM3", "hmac-sm3"),
                      ("HMAC_BLAKE2B_512", "hmac-blake2b-512"), ("CMAC_3DES", "cmac-3des"),
                      ("POLY1305_AES", "poly1305-aes"), ("HMAC_GOSTR3411_CP", "hmac-gostr3411-94"),
                      ("CMAC_TWOFISH", "cmac-twofish-256"), ("GMAC_CAMELLIA", "gmac-camellia-128"),
                      ("POLY1305_SERPENT", "poly1305-serpent")},
        "nettle": {("hmac_ripemd160", "hmac-ripemd160"), ("hmac_sm3", "hmac-sm3"),
                   ("cmac_des3", "cmac-3des")},
        "libtomcrypt": {("hmac-sha3-512", "hmac-sha3-512"), ("hmac-tiger", "hmac-tiger"),
                        ("hmac-whirlpool", "hmac-whirlpool"), ("md2", "md2"),
                        ("rmd320", "ripemd320"), ("hmac-rmd128", "hmac-ripemd128")},
        "gnutls": {("STREEBOG-256", "hmac-streebog-256"), ("AES-GMAC-256", "gmac-aes-256"),
                   ("UMAC-96", "umac-96")},
        "libsodium": {("crypto_aead_xchacha20poly1305_ietf", "xchacha20-poly1305"),
                      ("crypto_stream_xsalsa20", "xsalsa20"),
                      ("crypto_shorthash_siphash24", "siphash-2-4"),
                      ("crypto_auth_hmacsha512256", "hmac-sha512-trunc256")},
        "openssl": {("SIPHASH", "siphash-2-4"), ("KMAC-128", "kmac-128"),
                    ("BLAKE2BMAC", "blake2b-mac"), ("KECCAK-KMAC-128", "keccak-kmac-128"),
                    ("KECCAK-KMAC-256", "keccak-kmac-256")},
    }
    for lib, pairs in want.items():
        if lib not in offers:
            continue
        got = {(m.name, m.algo) for m in offers[lib].offered}
        assert pairs <= got, (lib, sorted(pairs - got))


def test_libgcrypts_other_modes_hashes_and_macs_are_measured_where_offered():
    """SIV, GCM-SIV and key wrap over libgcrypt's other 128-bit ciphers, EAX over RC2, GOST
    28147-89 with key meshing, Tiger2, the byte-swapped Tiger, RFC 1510's CRC and the GOST and RC2
    MACs are rows; GCM-SIV with a 192-bit key, which libgcrypt opens but its setkey refuses, is
    not offered."""
    from cipherbench.cores import offered

    offers = {o.lib: o for o in offered.gather(core_client.Core(real_core()))}
    gc = offers.get("libgcrypt")
    if gc is None or _version(gc.version) < (1, 10):
        pytest.skip("libgcrypt 1.10 or later (SIV) is not in this core")
    want = {("TWOFISH/SIV", "twofish-256-siv"), ("SM4/GCM-SIV", "sm4-gcm-siv"),
            ("RFC2268_40/EAX", "rc2-40-eax"), ("GOST28147_MESH/CFB", "gost28147-mesh-cfb"),
            ("CAMELLIA192/AESWRAP", "camellia-192-kw"), ("TIGER2", "tiger2"),
            ("TIGER192", "tiger-be"), ("CRC32RFC1510", "crc32-rfc1510"),
            ("GOST28147_IMIT", "gost28147-imit"), ("CMAC_RFC2268", "cmac-rc2")}
    if _version(gc.version) < (1, 11):
        want.add(("SEED/AESWRAP+EXTENDED", "seed-kwp"))
    got = {(m.name, m.algo) for m in gc.offered}
    assert want <= got, sorted(want - got)
    names = {m.name for m in gc.offered}
    assert "AES192/GCM-SIV" not in names and "SERPENT192/GCM-SIV" not in names
    assert "AES256/GCM-SIV" in names


def test_openssl_32s_gcm_siv_sm4_modes_keccak_and_sha256_192_are_measured_where_offered():
    """OpenSSL 3.2 added AES-GCM-SIV (128, 192 and 256-bit keys), SM4-GCM, SM4-CCM and SM4-XTS,
    KECCAK-224 ... 512 and SHA2-256/192: with OpenSSL 3.2 or later each is a row (so `list
    --missing` no longer names it) whose known answers pass; an older OpenSSL has no such
    row (the table leaves them out at compile time)."""
    import json
    import subprocess
    from pathlib import Path

    from cipherbench.cores import offered

    core = real_core()
    offers = {o.lib: o for o in offered.gather(core_client.Core(core))}
    if "openssl" not in offers:
        pytest.skip("no openssl backend in this build")
    ossl = offers["openssl"]
    pairs = {("AES-128-GCM-SIV", "aes-128-gcm-siv"), ("AES-192-GCM-SIV", "aes-192-gcm-siv"),
             ("AES-256-GCM-SIV", "aes-256-gcm-siv"), ("SM4-GCM", "sm4-gcm"), ("SM4-CCM", "sm4-ccm"),
             ("SM4-XTS", "sm4-xts"), ("KECCAK-224", "keccak-224"), ("KECCAK-256", "keccak-256"),
             ("KECCAK-384", "keccak-384"), ("KECCAK-512", "keccak-512"),
             ("SHA2-256/192", "sha256-192")}
    rows = {r.algo for r in core_client.Core(core).list().rows("openssl")}
    if _version(ossl.version) < (3, 2):
        assert not rows & {a for _, a in pairs}
        return
    got = {(m.name, m.algo) for m in ossl.offered}
    assert pairs <= got, sorted(pairs - got)
    assert not [m for m in ossl.missing if m.name in {n for n, _ in pairs}]
    vectors = Path(__file__).resolve().parents[1] / "vectors"
    for _, algo in sorted(pairs):
        out = subprocess.run([str(core), "kat", "--lib", "openssl", "--no-differential",
                              "--vectors", str(vectors / f"{algo}.json")],
                             capture_output=True, text=True, timeout=120)
        kats = [r for r in map(json.loads, out.stdout.splitlines()) if r["type"] == "kat"]
        assert [r["algo"] for r in kats] == [algo], out.stdout[-500:]
        assert kats[0]["failed"] == 0 and kats[0]["passed"] > 0, kats


def test_list_missing_cli(cli, env):
    e = dict(env, CIPHERBENCH_CORE=str(real_core()))
    r = cli("list", "--missing", env_override=e)
    assert r.rc == 0, r.err
    assert "offered algorithms not measured" in r.out or "is not listed" in r.out
    r = cli("list", "--missing", "--json", env_override=e)
    assert r.rc == 0, r.err
    import json
    doc = json.loads(r.out)["libraries"]
    assert all(set(d) == {"lib", "version", "enumerates", "missing"} for d in doc)
    assert all(not m["algo"] for d in doc for m in d["missing"])


def test_secretbox_and_salsa20_reduced_rounds_are_measured_as_libsodium_offers_them():
    """NaCl's secretbox is an AEAD without associated data: its rows say aad_len 0 and are
    timed with none (libsodium's row refuses any, so a timed message carrying AAD would be an
    error, not a point); Salsa20/12 and /8 run one message a call."""
    from cipherbench.cores import offered

    core = core_client.Core(real_core())
    inv = core.list()
    if not inv.supports("libsodium", "xsalsa20-poly1305", "decrypt"):
        pytest.skip("this build has no libsodium")
    algos = {r["algo"]: r for r in core.run_lines(["list", "--lib", "libsodium"])
             if r["type"] == "algorithm"}
    assert algos["xsalsa20-poly1305"]["aad_len"] == 0
    assert algos["xchacha20-poly1305-secretbox"]["aad_len"] == 0
    assert algos["chacha20-poly1305"]["aad_len"] == 13
    assert "aad_len" not in algos["salsa20r12-msg"]
    offers = {o.lib: o for o in offered.gather(core)}
    got = {(m.name, m.algo) for m in offers["libsodium"].offered}
    assert {("crypto_secretbox_xsalsa20poly1305", "xsalsa20-poly1305"),
            ("crypto_secretbox_xchacha20poly1305", "xchacha20-poly1305-secretbox"),
            ("crypto_stream_salsa2012", "salsa20r12-msg"),
            ("crypto_stream_salsa208", "salsa20r8-msg")} <= got
    for algo, op in (("xsalsa20-poly1305", "decrypt"), ("xchacha20-poly1305-secretbox", "encrypt"),
                     ("salsa20r8-msg", "encrypt")):
        recs = core.run_lines(["bench", "--lib", "libsodium", "--algo", algo, "--op", op,
                               "--sizes", "64,1024", "--samples", "3"])
        points = [r for r in recs if r["type"] == "point"]
        assert [p["size"] for p in points] == [64, 1024], (algo, [r for r in recs if r["type"] == "error"])


# ---- Nettle 3.9/3.10 and GnuTLS 3.8 rows: present with those releases, absent before ----

_NETTLE_39 = {"sm4-ecb", "sm4-cbc", "sm4-ctr", "sm4-cfb", "sm4-cfb8", "sm4-xts", "sm4-gcm",
              "aes-128-gcm-siv", "aes-256-gcm-siv", "aes-128-ocb", "aes-192-ocb", "aes-256-ocb"}


def test_nettle_rows_follow_the_release():
    """SM4 (its modes and GCM), AES-GCM-SIV and OCB are rows from Nettle 3.9 on, SHAKE128 from
    3.10; an older Nettle has none of them. What 3.9 lists (sm4 in each mode, gcm_sm4) and
    3.10.1's HMACs over GOST R 34.11-94 are named as those rows in `list --missing`."""
    from cipherbench.cores import offered

    core = core_client.Core(real_core())
    offers = {o.lib: o for o in offered.gather(core)}
    nettle = offers.get("nettle")
    if nettle is None:
        pytest.skip("this build has no Nettle")
    rows = {r.algo for r in core.list().rows("nettle")}
    version = _version(nettle.version)
    if version >= (3, 9):
        assert _NETTLE_39 <= rows, sorted(_NETTLE_39 - rows)
    else:
        assert not _NETTLE_39 & rows, sorted(_NETTLE_39 & rows)
    assert ("shake128" in rows) == (version >= (3, 10))
    got = {m.name: m.algo for m in nettle.offered}
    if version >= (3, 9):
        assert {n: got.get(n) for n in ("sm4/ecb", "sm4/cfb8", "sm4/xts", "gcm_sm4")} == {
            "sm4/ecb": "sm4-ecb", "sm4/cfb8": "sm4-cfb8", "sm4/xts": "sm4-xts", "gcm_sm4": "sm4-gcm"}
    if "hmac_gosthash94cp" in got:   # Nettle 3.10.1's nettle_mac structs
        assert got["hmac_gosthash94cp"] == "hmac-gostr3411-94"
        assert got["hmac_gosthash94"] == "hmac-gostr3411-94-test"
    assert not [m for m in nettle.offered if m.name.startswith(("sm4", "gcm_sm4", "hmac_gost"))
                and not m.algo]


def test_gnutls_gcm_siv_rows_follow_the_release():
    """AES-GCM-SIV is a GnuTLS row from 3.8.2 on (GNUTLS_CIPHER_AES_*_SIV_GCM), timed through
    the whole-message AEAD calls; GnuTLS 3.7 has neither the cipher nor the rows."""
    from cipherbench.cores import offered

    core = core_client.Core(real_core())
    offers = {o.lib: o for o in offered.gather(core)}
    gnutls = offers.get("gnutls")
    if gnutls is None:
        pytest.skip("this build has no GnuTLS")
    rows = {r.algo for r in core.list().rows("gnutls")}
    new = _version(gnutls.version) >= (3, 8, 2)
    gcm_siv = {"aes-128-gcm-siv", "aes-256-gcm-siv"}
    if not new:
        assert not gcm_siv & rows
        return
    assert gcm_siv <= rows
    got = {m.name: m.algo for m in gnutls.offered}
    assert got["AES-128-SIV-GCM"] == "aes-128-gcm-siv" and got["AES-256-SIV-GCM"] == "aes-256-gcm-siv"
    for op in ("encrypt", "decrypt"):
        recs = core.run_lines(["bench", "--lib", "gnutls", "--algo", "aes-256-gcm-siv", "--op", op,
                               "--sizes", "17,1024", "--samples", "3"])
        assert [r["size"] for r in recs if r["type"] == "point"] == [17, 1024], \
            [r for r in recs if r["type"] == "error"]


# ---- Mbed TLS's enumeration (mbedtls_cipher_list, mbedtls_md_list) ----------------------

def test_mbedtls_offers_map_to_rows_or_reasons():
    """Mbed TLS lists its cipher types and digests; each digest is offered as HMAC too. Every
    name it lists is measured by a row of its own or, like CCM*-NO-TAG, has a reason; the
    type names map by mode and key length to the rows (the AEAD and XTS types included)."""
    from cipherbench.cores import offered

    core = core_client.Core(real_core())
    mbed = next((o for o in offered.gather(core, "mbedtls")), None)
    if mbed is None:
        pytest.skip("this build has no Mbed TLS")
    assert mbed.enumerates
    got = {m.name: m.algo for m in mbed.offered}
    kinds = {m.name: m.kind for m in mbed.offered}
    expected = {"AES-128-GCM": "aes-128-gcm", "AES-192-CCM": "aes-192-ccm",
                "CHACHA20-POLY1305": "chacha20-poly1305", "AES-256-XTS": "aes-256-xts",
                "AES-128-OFB": "aes-128-ofb", "DES-EDE3-CBC": "3des-cbc",
                "CAMELLIA-256-CCM": "camellia-256-ccm", "SHA256": "sha256",
                "HMAC-SHA384": "hmac-sha384"}
    assert {n: got.get(n) for n in expected} == expected
    assert kinds["AES-128-GCM"] == "aead" and kinds["AES-128-CBC"] == "cipher"
    assert kinds["SHA256"] == "hash" and kinds["HMAC-SHA256"] == "mac"
    assert "NONE" not in got and "NULL" not in got
    if "AES-128-KW" in got:   # a library built with MBEDTLS_NIST_KW_C
        assert kinds["AES-128-KW"] == "keywrap" and got["AES-128-KWP"] == "aes-128-kwp"
    rows = {r.algo for r in core.list().rows("mbedtls")}
    assert all(m.algo in rows for m in mbed.offered if m.algo)
    assert not mbed.gaps, [m.name for m in mbed.gaps]
    assert all(m.name.endswith("CCM*-NO-TAG") for m in mbed.missing)
