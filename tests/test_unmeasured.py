# SPDX-License-Identifier: GPL-3.0-or-later
"""What a library offers and cipherbench leaves out on purpose: the core gives the reason
with the offered record (core/unmeasured.c), `list --missing` prints it apart from the gaps
still to close, and the reason itself holds for the library installed."""
from __future__ import annotations

import ctypes
import ctypes.util

import pytest

from cipherbench.cores import core_client, offered
from conftest import real_core

GOST28147_MESH, ECB, CBC, SET_SBOX = 317, 1, 3, 73   # gcrypt.h's ids
CRYPTOPRO_A = b"1.2.643.2.2.31.1"


def test_the_reasons_are_printed_apart_from_the_gaps_and_fit_the_terminal():
    lib = offered.LibraryOffer("somelib", "1.0", True, [
        offered.Offered("cipher", "FOO/CBC", "foo-cbc"),
        offered.Offered("cipher", "BAR/ECB", ""),
        offered.Offered("hash", "BAZ", ""),
        offered.Offered("aead", "QUX/EAX", "", "the library's EAX keeps state from one "
                        "message into the next, so no two messages are the same work " * 2),
    ])
    lines = offered.format_missing([lib])
    assert lines[0] == "somelib 1.0: 3 of 4 offered algorithms not measured (1 on purpose, why below)"
    assert "  cipher: BAR/ECB" in lines and "  hash: BAZ" in lines
    assert not any(l.startswith("  aead:") for l in lines), "a reasoned entry is no gap"
    at = next(i for i, l in enumerate(lines) if "QUX/EAX" in l)
    assert lines[at].startswith("  not measured: QUX/EAX: the library's EAX keeps state")
    assert len(lines) > at + 1 and all(l.startswith("    ") for l in lines[at + 1:])
    assert all(len(l) <= offered.WIDTH for l in lines)
    assert [m.name for m in lib.gaps] == ["BAR/ECB", "BAZ"]


def test_names_left_out_for_one_reason_share_a_line():
    lib = offered.LibraryOffer("somelib", "1.0", True, [
        offered.Offered("cipher", "M2/ECB", "", "no known answer"),
        offered.Offered("cipher", "M2/CBC", "", "no known answer"),
        offered.Offered("cipher", "GOST/ECB", "", "decryption does not undo encryption"),
    ])
    lines = offered.format_missing([lib])
    assert lines[1:] == ["  not measured: M2/ECB, M2/CBC: no known answer",
                         "  not measured: GOST/ECB: decryption does not undo encryption"]


def _gcrypt():
    path = ctypes.util.find_library("gcrypt")
    if not path:
        pytest.skip("libgcrypt is not installed")
    lib = ctypes.CDLL(path)
    lib.gcry_check_version(None)
    return lib


def _mesh(lib, mode: int, data: bytes, decrypt: bool) -> bytes:
    h = ctypes.c_void_p()
    if lib.gcry_cipher_open(ctypes.byref(h), GOST28147_MESH, mode, 0) != 0:
        pytest.skip("this libgcrypt has no GOST28147_MESH")
    try:
        assert lib.gcry_cipher_ctl(h, SET_SBOX, ctypes.c_char_p(CRYPTOPRO_A), ctypes.c_size_t(0)) == 0
        assert lib.gcry_cipher_setkey(h, bytes(range(32)), ctypes.c_size_t(32)) == 0
        if mode == CBC:
            assert lib.gcry_cipher_setiv(h, bytes(8), ctypes.c_size_t(8)) == 0
        out = ctypes.create_string_buffer(len(data))
        fn = lib.gcry_cipher_decrypt if decrypt else lib.gcry_cipher_encrypt
        assert fn(h, out, ctypes.c_size_t(len(data)), data, ctypes.c_size_t(len(data))) == 0
        return out.raw
    finally:
        lib.gcry_cipher_close(h)


@pytest.mark.parametrize("mode", [ECB, CBC], ids=["ecb", "cbc"])
def test_libgcrypts_meshed_gost_in_ecb_and_cbc_does_not_decrypt_past_1_kib(mode):
    """The reason core/unmeasured.c gives, checked on the installed libgcrypt: the first
    KiB round-trips, what follows the first key meshing does not. When a release fixes this,
    this test fails: then the rows can be added."""
    lib = _gcrypt()
    plain = bytes(i % 251 for i in range(2048))
    back = _mesh(lib, mode, _mesh(lib, mode, plain, decrypt=False), decrypt=True)
    assert back[:1024] == plain[:1024]
    assert back[1024:] != plain[1024:]


def test_the_core_gives_the_reason_with_the_offered_record():
    core = core_client.Core(real_core())
    offers = {o.lib: o for o in offered.gather(core)}
    if "libgcrypt" not in offers:
        pytest.skip("this build has no libgcrypt")
    why = {m.name: m.why for m in offers["libgcrypt"].missing}
    if "GOST28147_MESH/ECB" not in why:
        pytest.skip("this libgcrypt offers no GOST28147_MESH")
    assert "RFC 4357" in why["GOST28147_MESH/ECB"] and why["GOST28147_MESH/CBC"]
    measured = {m.name for m in offers["libgcrypt"].offered if m.algo}
    assert "GOST28147_MESH/CFB" in measured and not any(m.why for m in offers["libgcrypt"].offered
                                                          if m.algo)


def _gnutls_keystream(name: bytes, iv: bytes) -> bytes:
    path = ctypes.util.find_library("gnutls")
    if not path:
        pytest.skip("GnuTLS is not installed")
    lib = ctypes.CDLL(path)

    class Datum(ctypes.Structure):
        _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_uint)]
    algo = lib.gnutls_cipher_get_id(name)
    if algo == 0:
        pytest.skip(f"this GnuTLS has no {name.decode()}")
    h = ctypes.c_void_p()
    key = bytes(range(32))
    assert lib.gnutls_cipher_init(ctypes.byref(h), algo, ctypes.byref(Datum(key, 32)),
                                  ctypes.byref(Datum(iv, len(iv)))) == 0
    try:
        out = ctypes.create_string_buffer(64)
        assert lib.gnutls_cipher_encrypt2(h, bytes(64), ctypes.c_size_t(64), out,
                                          ctypes.c_size_t(64)) == 0
        return out.raw
    finally:
        lib.gnutls_cipher_deinit(h)


@pytest.mark.parametrize("name", [b"SALSA20-256", b"ESTREAM-SALSA20-256"])
def test_gnutls_salsa20_ignores_its_iv(name):
    """The reason core/unmeasured.c gives, checked on the installed GnuTLS: two different
    nonces give one keystream. When a release passes the IV on, this test fails: then the
    rows can be added."""
    assert _gnutls_keystream(name, bytes(range(8))) == _gnutls_keystream(name, bytes(8))


def test_a_reason_names_a_family_by_pattern_and_never_covers_a_measured_row():
    """core/unmeasured.c's names are patterns (multi2/* is every MULTI2 mode); a measured
    algorithm never carries a reason, even where a pattern matches it (libgcrypt's
    */AESWRAP+EXTENDED is measured with 1.9 and 1.10)."""
    offers = {o.lib: o for o in offered.gather(core_client.Core(real_core()))}
    if "libtomcrypt" not in offers:
        pytest.skip("this build has no LibTomCrypt")
    multi2 = [m for m in offers["libtomcrypt"].offered if m.name.startswith("multi2/")]
    assert multi2 and all(not m.algo and "known answer" in m.why for m in multi2)
    assert all(not m.why for o in offers.values() for m in o.offered if m.algo)


GNUTLS_E_INVALID_REQUEST = -50


def test_gnutls_pbmac1_is_no_mac_over_messages():
    """The reason core/unmeasured.c gives for GnuTLS's PBMAC1 (3.8.6 and later), checked on
    the installed GnuTLS: listed among the MACs, yet gnutls_hmac_init refuses it and it has no
    output length. When a release lets it be keyed over messages, this test fails."""
    path = ctypes.util.find_library("gnutls")
    if not path:
        pytest.skip("GnuTLS is not installed")
    lib = ctypes.CDLL(path)
    algo = lib.gnutls_mac_get_id(b"PBMAC1")
    if algo == 0:
        pytest.skip("this GnuTLS has no PBMAC1 (it came with 3.8.6)")
    lib.gnutls_mac_list.restype = ctypes.POINTER(ctypes.c_int)
    listed, i = lib.gnutls_mac_list(), 0
    while listed[i] and listed[i] != algo:
        i += 1
    assert listed[i] == algo, "PBMAC1 is offered through gnutls_mac_list"
    assert lib.gnutls_hmac_get_len(algo) == 0
    h = ctypes.c_void_p()
    key = bytes(range(32))
    assert lib.gnutls_hmac_init(ctypes.byref(h), algo, key, ctypes.c_size_t(32)) == \
        GNUTLS_E_INVALID_REQUEST
    out = ctypes.create_string_buffer(64)
    assert lib.gnutls_hmac_fast(algo, key, ctypes.c_size_t(32), b"abc", ctypes.c_size_t(3),
                                out) == GNUTLS_E_INVALID_REQUEST

    offers = {o.lib: o for o in offered.gather(core_client.Core(real_core()))}
    if "gnutls" not in offers:
        pytest.skip("this build has no GnuTLS")
    pbmac1 = [m for m in offers["gnutls"].offered if m.name == "PBMAC1"]
    assert pbmac1 and not pbmac1[0].algo and "RFC 8018" in pbmac1[0].why
