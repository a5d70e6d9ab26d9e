# SPDX-License-Identifier: GPL-3.0-or-later
"""The known-answer vector files in vectors/: format, sizes, coverage, and an independent re-check."""
import functools
import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "vectors"
FILES = sorted(VECTORS.glob("*.json")) + sorted(VECTORS.glob("invalid/*.json"))
HEX = re.compile(r"(?:[0-9a-f]{2})*")

# required (and allowed) fields of one vector, by kind
REQUIRED = {
    "aead": {"key", "iv", "aad", "pt", "ct", "tag"},
    "cipher": {"key", "pt", "ct"},
    "hash": {"msg", "md"},
    "mac": {"key", "msg", "mac"},
    "keywrap": {"key", "pt", "ct"},
}
OPTIONAL = {"aead": set(), "cipher": {"iv"}, "hash": {"repeat"}, "mac": {"iv", "repeat"},
            "keywrap": set()}
NO_IV = re.compile(r".*-ecb|rc4|rc4-40")
WHOLE_BLOCKS = re.compile(r".*-(cbc|ecb)")
# must-fail vectors: what each file of invalid/ covers (name endings), by kind
INVALID_CLASSES = {
    "aead": ("first tag byte flipped", "middle tag byte flipped", "last tag byte flipped",
             "tag truncated by one byte", "one byte short", "one byte long",
             "tag cut to 0 bytes", "tag cut to 1 byte", "tag cut to 4 bytes",
             "nonce one byte short", "nonce one byte long"),
    "mac": ("first mac byte flipped", "middle mac byte flipped", "last mac byte flipped",
            "mac truncated by one byte", "one byte short"),
    "keywrap": ("first byte (integrity check) flipped", "middle byte flipped",
                "last byte flipped", "KEK bit flipped", "one 8-byte block short"),
}


def registry():
    """{name: (kind, key, iv, tag, block)} from core/algorithms.c."""
    row = re.compile(r'\{\s*"([^"]+)",\s*CB_(\w+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\s*\}')
    text = (ROOT / "core" / "algorithms.c").read_text()
    return {m.group(1): (m.group(2).lower(),) + tuple(int(m.group(i)) for i in range(3, 7))
            for m in row.finditer(text)}


REG = registry()


def no_aad():
    """The AEADs that take no associated data (NaCl's secretbox): the rows of core/algorithms.c's
    row_traits table whose no_aad field is 1."""
    text = (ROOT / "core" / "algorithms.c").read_text()
    table = re.search(r"row_traits\[\] = \{(.*?)\n\};", text, re.S)
    rows = re.findall(r'\{"([^"]+)", (\d), (\d), \d+\}', table.group(1)) if table else []
    return {name for name, no_aad, _ in rows if no_aad == "1"}


NO_AAD = no_aad()


def test_registry_parsed():
    assert "aes-128-gcm" in REG and REG["aes-128-gcm"] == ("aead", 16, 12, 16, 1)
    assert len(REG) > 50
    assert NO_AAD == {"xsalsa20-poly1305", "xchacha20-poly1305-secretbox"}


def test_every_algorithm_has_a_file():
    names = {f.stem for f in FILES}
    missing = sorted(a for a, row in REG.items() if row[0] != "ref" and a not in names)
    assert not missing, f"no vector file for {missing}"


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(VECTORS)) for f in FILES])
def test_file_format(path):
    doc = json.loads(path.read_text())
    assert set(doc) <= {"format", "algo", "source", "notes", "vectors"}
    assert doc["format"] == "cipherbench-vectors/1"
    algo = doc["algo"]
    # ALGO.json holds the standard's vectors; ALGO-WHAT.json more cases of one kind, and
    # invalid/ALGO.json the must-fail ones
    assert re.fullmatch(re.escape(algo) + r"(-[a-z]+)?", path.stem), \
        "the file name must be the algo, or the algo and a suffix"
    assert algo in REG, f"{algo} is not in core/algorithms.c"
    kind, key_len, iv_len, tag_len, block = REG[algo]
    assert kind != "ref"
    assert isinstance(doc["source"], str) and len(doc["source"]) > 10
    assert isinstance(doc.get("notes", ""), str)
    vectors = doc["vectors"]
    assert isinstance(vectors, list) and vectors
    names = [v.get("name") for v in vectors]
    assert all(isinstance(n, str) and n for n in names), "every vector needs a name"
    assert len(set(names)) == len(names), "vector names must be unique in a file"

    for v in vectors:
        fields = set(v) - {"name", "source", "result", "expect"}
        if v.get("result", "valid") == "invalid":
            # a must-fail case: an AEAD, MAC or key wrap, what must happen said, sizes free
            # (some are wrong on purpose), no plaintext to give (a key wrap's pt, when given,
            # is how much key data the unwrap expects)
            assert kind in ("aead", "mac", "keywrap") and v["expect"] == "auth_failure", v["name"]
            assert not (REQUIRED[kind] - {"pt"}) - fields, v["name"]
            assert not fields - REQUIRED[kind] - OPTIONAL[kind], v["name"]
            assert all(HEX.fullmatch(v[f]) for f in fields), v["name"]
            continue
        assert v.get("result", "valid") == "valid" and "expect" not in v, v["name"]
        missing = REQUIRED[kind] - fields
        assert not missing, f"{v['name']}: missing {sorted(missing)}"
        extra = fields - REQUIRED[kind] - OPTIONAL[kind]
        assert not extra, f"{v['name']}: unknown fields {sorted(extra)}"
        assert isinstance(v.get("source", ""), str)
        for f in REQUIRED[kind] | (OPTIONAL[kind] & fields) - {"repeat"}:
            assert isinstance(v[f], str) and HEX.fullmatch(v[f]), f"{v['name']}: {f} is not lowercase hex"
        if "repeat" in v:
            assert isinstance(v["repeat"], int) and v["repeat"] >= 1
        size = {f: len(v[f]) // 2 for f in fields if f != "repeat"}

        if kind == "aead":
            assert (size["key"], size["iv"], size["tag"]) == (key_len, iv_len, tag_len), v["name"]
            assert not (algo in NO_AAD and size["aad"]), f"{v['name']}: {algo} takes no aad"
            assert size["pt"] == size["ct"], v["name"]
        elif kind == "cipher":
            assert size["key"] == key_len, v["name"]
            if NO_IV.fullmatch(algo):
                assert "iv" not in v, f"{v['name']}: {algo} takes no iv"
            else:
                assert size.get("iv") == iv_len, f"{v['name']}: iv must be {iv_len} bytes"
            assert size["pt"] == size["ct"] and size["pt"] > 0, v["name"]
            if WHOLE_BLOCKS.fullmatch(algo):
                assert size["pt"] % block == 0, f"{v['name']}: not whole {block}-byte blocks"
            if algo.endswith("-xts"):   # one data unit: a block at least, then any length
                assert size["pt"] >= 16, v["name"]
        elif kind == "keywrap":   # padded to 8 bytes plus the row's tag_len: RFC 3394 / 5649's
            # 8-byte check, RFC 3217's IV and check (16)
            assert size["key"] == key_len, v["name"]
            assert size["pt"] >= (16 if block == 8 else 1) and size["pt"] % block == 0, v["name"]
            assert size["ct"] == -(-size["pt"] // 8) * 8 + tag_len, v["name"]
        elif kind == "hash":
            if algo == "shake128":
                assert size["md"] > 0
            else:
                assert size["md"] == tag_len, v["name"]
        else:
            if not algo.startswith("hmac-"):
                assert size["key"] == key_len, v["name"]
            assert size.get("iv", 0) == iv_len, f"{v['name']}: iv must be {iv_len} bytes"
            assert 0 < size["mac"] <= tag_len, v["name"]


def test_each_cipher_mode_has_a_multiblock_vector():
    for path in FILES:
        doc = json.loads(path.read_text())
        kind, _, _, _, block = REG[doc["algo"]]
        if kind != "cipher":
            continue
        # the unit a vector must exceed: the cipher block, the 64-byte ChaCha/Salsa block, or
        # the 16-byte block behind AES and Camellia in CTR and CFB (and 16 bytes of RC4)
        unit = block if block > 1 else 64 if "salsa" in doc["algo"] or doc["algo"] == "chacha20" else 16
        assert any(len(v["pt"]) // 2 > unit for v in doc["vectors"]), f"{path.name}: no multi-block vector"


def test_hash_and_aead_files_have_an_empty_message():
    for path in FILES:
        doc = json.loads(path.read_text())
        kind = REG[doc["algo"]][0]
        field = {"hash": "msg", "aead": "pt"}.get(kind)
        if field and path.stem == doc["algo"] and path.parent == VECTORS:   # the standard's
            assert any(v[field] == "" for v in doc["vectors"]), f"{path.name}: no empty message"


@functools.cache
def _load_checker():
    """vectors/check_vectors.py, loaded once for the module: loading it per test (882 of them)
    rebuilt its tables each time and took most of the fast test loop."""
    spec = importlib.util.spec_from_file_location("check_vectors", VECTORS / "check_vectors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# real: the checker recomputes with outside implementations, the openssl command (a process
# per vector for a third of the files) and the system's libnettle, libgcrypt, Botan, libsodium
@pytest.mark.real
@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(VECTORS)) for f in FILES])
def test_independent_implementation_agrees(path):
    """Every vector recomputed outside cipherbench (skipped where no implementation is available)."""
    checker = _load_checker()
    checked, failures, why = checker.check_file(path, checker.load_registry())
    assert not failures
    if why is not None:
        pytest.skip(f"not checked independently: {why}")
    assert checked > 0


def test_every_aead_and_mac_has_its_must_fail_cases():
    """Forged tags at the first, a middle and the last byte, a truncated tag, wrong lengths
    (key wraps: flipped bytes, a wrong KEK, a block short)."""
    for algo, row in REG.items():
        if row[0] not in INVALID_CLASSES:
            continue
        path = VECTORS / "invalid" / f"{algo}.json"
        assert path.exists(), f"no must-fail vectors for {algo}"
        names = [v["name"] for v in json.loads(path.read_text())["vectors"]
                 if v.get("result") == "invalid"]
        for what in INVALID_CLASSES[row[0]]:
            assert any(n.endswith(what) for n in names), f"{path.name}: no case {what!r}"
        if row[0] == "aead":   # every prefix shorter than the row's tag
            for k in (8, 15):
                assert (k >= row[3]) == (not any(n.endswith(f"tag cut to {k} bytes") for n in names)), \
                    f"{path.name}: tag cut to {k} bytes"
        # RFC 3394's wraps (block 8, an 8-byte check): one block of key data must be refused
        one_block = any("one block of key data" in n for n in names)
        assert one_block == (row[0] == "keywrap" and row[4] == 8 and row[3] == 8), algo


def test_the_one_block_wraps_would_pass_a_check_that_let_one_block_through():
    """The one-block case is RFC 3394's W over n = 1, not a corrupted wrap: unwrapping it with
    n = 1 gives its key data under the right integrity check, so a library that lets one block
    through accepts it (Botan did); RFC 3394 requires two blocks."""
    checker = _load_checker()
    for algo in ("aes-128-kw", "aes-256-kw-inv", "camellia-128-kw", "sm4-kw"):
        v = next(x for x in json.loads((VECTORS / "invalid" / f"{algo}.json").read_text())["vectors"]
                 if "one block of key data" in x["name"])
        ct = bytes.fromhex(v["ct"])
        assert len(ct) == 16 and len(bytes.fromhex(v["pt"])) == 8
        try:
            enc, dec, _ = checker.block_cipher(algo.split("-")[0], bytes.fromhex(v["key"]))
        except Exception as e:   # no independent block function here
            pytest.skip(f"{algo}: {e}")
        inverse = enc if algo.endswith("-inv") else dec
        a, r = ct[:8], ct[8:]
        for j in range(5, -1, -1):
            b = inverse(checker._xor(a, (j + 1).to_bytes(8, "big")) + r)
            a, r = b[:8], b[8:]
        assert a == bytes.fromhex("a6a6a6a6a6a6a6a6") and r.hex() == v["pt"], algo


def test_the_checker_catches_a_must_fail_vector_that_passes(tmp_path):
    """A standard (valid) vector labelled invalid must be reported by check_vectors.py."""
    checker = _load_checker()
    reg = checker.load_registry()
    for algo in ("aes-128-gcm", "hmac-sha256", "aes-128-kw", "aes-192-kwp"):
        doc = json.loads((VECTORS / f"{algo}.json").read_text())
        v = dict(doc["vectors"][-1], result="invalid", expect="auth_failure")
        doc["vectors"] = [v]
        f = tmp_path / f"{algo}.json"
        f.write_text(json.dumps(doc))
        checked, failures, why = checker.check_file(f, reg)
        if why is not None:
            pytest.skip(f"not checked independently: {why}")
        assert checked == 1 and failures, algo


def test_the_checkers_own_implementations_agree_with_references():
    """check_vectors.py's code for what no library here offers independently (RIPEMD, the
    Keccak sponge under KMAC, SipHash, HChaCha20) against hashlib and the specifications'
    own examples."""
    import hashlib
    checker = _load_checker()
    for msg in (b"", b"abc", b"a" * 1000):
        assert checker.ripemd(msg, 160) == hashlib.new("ripemd160", msg).digest()
        assert checker._keccak(136, msg, 0x06, 32) == hashlib.sha3_256(msg).digest()
        assert checker._keccak(168, msg, 0x1F, 100) == hashlib.shake_128(msg).digest(100)
    # the original Keccak (suffix 0x01): the Keccak team's ShortMsgKAT_256 and _512, Len = 0
    assert checker._keccak(136, b"", 0x01, 32).hex() == \
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    assert checker._keccak(72, b"", 0x01, 64).hex() == (
        "0eab42de4c3ceb9235fc91acffe746b29c29a8c366b7c60e4e67c466f36a4304"
        "c00fa9caf9d87976ba469bcbe06713b435f091ef2769fb160cdab33d3670680e")
    # the RIPEMD page's RIPEMD-128 and -320 of "abc"
    assert checker.ripemd(b"abc", 128).hex() == "c14a12199c66e4ba84636b0f69144c77"
    assert checker.ripemd(b"abc", 320).hex() == ("de4c01b3054f8930a79d09ae738e92301e5a1708"
                                                 "5beffdc1b8d116713e74f82fa942d64cdbc4682d")
    # SipHash paper, Appendix A; draft-irtf-cfrg-xchacha-03 section 2.2.1
    assert checker.siphash24(bytes(range(16)), bytes(range(15))).hex() == "e545be4961ca29a1"
    assert checker.hchacha20(bytes(range(32)), bytes.fromhex("000000090000004a0000000031415927")).hex() \
        == "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc"


def test_the_checkers_cshake_reproduces_sp800_185s_samples():
    """cSHAKE (the cshake128/256 rows) from check_vectors.py's own sponge: SP 800-185's
    cSHAKE samples #1 and #4 (N empty, S "Email Signature"), and SHAKE when N and S are empty."""
    import hashlib
    checker = _load_checker()
    assert checker.cshake(128, bytes(range(4)), 32).hex() == \
        "c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5"
    assert checker.cshake(256, bytes(range(200)), 64).hex() == (
        "07dc27b11e51fbac75bc7b3c1d983e8b4b85fb1defaf218912ac86430273091727f42b17ed1df63e8ec118f04b"
        "23633c1dfb1574c8fb55cb45da8e25afb092bb")
    assert checker.cshake(128, b"abc", 32, name=b"", custom=b"") == hashlib.shake_128(b"abc").digest(32)


@pytest.mark.parametrize("algo,names", [
    ("aes-128-cbc", None), ("aes-128-cfb", None), ("aes-128-cfb8", None), ("aes-128-ofb", None),
    ("aes-128-ctr", None), ("aes-128-xts", None), ("aes-256-xts", None), ("aes-128-cbc-cts", None),
    ("des-cbc", None), ("des-cfb", ("FIPS 81 64-bit CFB example",)),
    ("des-cfb8", ("FIPS 81 8-bit CFB example",)), ("des-ofb", ("FIPS 81 64-bit OFB example",))])
def test_modes_run_here_give_the_standards_own_mode_vectors(algo, names):
    """The modes check_vectors.py runs over a block function (for the ciphers no independent
    library has in that mode) reproduce SP 800-38A's, IEEE 1619's (with ciphertext stealing),
    RFC 3962's (CBC with ciphertext stealing) and FIPS 81's vectors, both ways."""
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    paths = [VECTORS / f"{algo}.json"]
    if algo.endswith("-xts"):
        paths.append(VECTORS / f"{algo}-stealing.json")
    ran = 0
    for path in paths:
        for v in json.loads(path.read_text())["vectors"]:
            if names and v["name"] not in names:
                continue
            key, iv, pt, ct = (bytes.fromhex(v.get(f, "")) for f in ("key", "iv", "pt", "ct"))
            assert checker.run_over_block(algo, key, iv, pt) == ct, v["name"]
            assert checker.run_over_block(algo, key, iv, ct, decrypt=True) == pt, v["name"]
            ran += 1
    assert ran


@pytest.mark.parametrize("algo", ["aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "aes-128-ccm",
                                  "aes-256-ccm", "aes-128-eax", "aes-128-ocb", "aes-256-ocb",
                                  "sm4-gcm", "sm4-ccm", "aria-128-gcm", "aria-256-gcm"])
@pytest.mark.real
def test_aeads_run_here_give_the_standards_vectors(algo):
    """check_vectors.py's GCM, CCM, EAX and OCB over a block function (for the ciphers pyca has
    no AEAD of) reproduce the AES vectors of SP 800-38D, SP 800-38C, the EAX paper and RFC 7253,
    and the first vector of the SM4 (RFC 8998) and ARIA (RFC 8269) files, the standards' own."""
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    family, _bits, mode = checker.AEAD_GRID.fullmatch(algo).groups()
    vectors = json.loads((VECTORS / f"{algo}.json").read_text())["vectors"]
    if not algo.startswith("aes-"):
        vectors = vectors[:1]
        assert vectors[0]["name"].startswith(("RFC 8998", "RFC 8269")), vectors[0]["name"]
    for v in vectors:
        key, iv, aad, pt, ct, tag = (bytes.fromhex(v[f])
                                     for f in ("key", "iv", "aad", "pt", "ct", "tag"))
        box = checker.BlockAead(family, mode, key, len(tag))
        assert box.encrypt(iv, pt, aad) == ct + tag, v["name"]
        assert box.decrypt(iv, ct + tag, aad) == pt, v["name"]


def test_cmac_run_here_gives_sp800_38b_tdea_examples():
    """The CMAC behind check_vectors.py's EAX over 64-bit block ciphers reproduces NIST SP
    800-38B Appendix D.4 (three-key TDEA), examples 1 and 2."""
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    enc, _dec, bs = checker.block_cipher(
        "3des", bytes.fromhex("8aa83bf8cbda10620bc1bf19fbb6cd58bc313d4a371ca8b5"))
    assert bs == 8
    assert checker._cmac(enc, b"", bs).hex() == "b7a688e122ffaf95"
    assert checker._cmac(enc, bytes.fromhex("6bc1bee22e409f96"), bs).hex() == "8e8f293136283797"


@pytest.mark.parametrize("cipher,key,pt,ct", [
    # Rivest, The RC5 Encryption Algorithm (FSE 1994): RC5-32/12/16 examples 1 and 5
    ("rc5", "00000000000000000000000000000000", "0000000000000000", "21a5dbee154b8f6d"),
    ("rc5", "5269f149d41ba0152497574d7f153125", "65c178b284d197cc", "eb44e415da319824"),
    # The RC6 Block Cipher (AES submission), 128-bit key vectors
    ("rc6", "00000000000000000000000000000000", "00000000000000000000000000000000",
     "8fc3a53656b1f778c129df4e9848a41e"),
    ("rc6", "0123456789abcdef0112233445566778", "02132435465768798a9bacbdcedfe0f1",
     "524e192f4715c6231f51f6367ea43f18"),
    # SKIPJACK and KEA Algorithm Specifications 2.0 (NIST, 1998)
    ("skipjack", "00998877665544332211", "33221100ddccbbaa", "2587cae27a12d300"),
    # Nessie Proposal: NOEKEON, direct-key mode
    ("noekeon", "00000000000000000000000000000000", "00000000000000000000000000000000",
     "b1656851699e29fa24b70148503d2dfc"),
    ("noekeon", "b1656851699e29fa24b70148503d2dfc", "2a78421b87c7d0924f26113f1d1349b2",
     "e2f687e07b75660ffc372233bc47532c"),
    # ... and indirect-key mode (the key first encrypted under the null key), Botan's Noekeon
    ("noekeon-indirect", "00000000000000000000000000000000", "00000000000000000000000000000000",
     "ba6933819299c71699a99f08f678178b"),
    ("noekeon-indirect", "ba6933819299c71699a99f08f678178b", "52f88a7b283c1f7bdf7b6faa5011c7d8",
     "5096f2bfc82ae6e2d9495515c277fa70"),
    # Massey, SAFER K-64 (FSE 1993), examples 1 and 4 (6 rounds)
    ("safer-k64", "0000000000000000", "0000000000000000", "032808c90ee7ab7f"),
    ("safer-k64", "0807060504030201", "0102030405060708", "c8f29cdd87783ed9"),
    # NESSIE test vectors of the tweaked Anubis (128-bit key) and the tweaked Khazad
    ("anubis", "80000000000000000000000000000000", "00000000000000000000000000000000",
     "b835bdc334829d8371bfa371e4b3c4fd"),
    ("anubis", "f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7", "f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7",
     "2daeed82a8d7a38cad24b186fcae5a2d"),
    ("khazad", "80000000000000000000000000000000", "0000000000000000", "49a4ce32ac190e3f"),
    ("khazad", "00000000000000000000000000000000", "8000000000000000", "9e399864f78eca02"),
    # Bluetooth Core Specification, E1 sample data set 1: Ar (SAFER+) of a zero block, zero key
    ("safer-plus", "00000000000000000000000000000000", "00000000000000000000000000000000",
     "158ffe43352085e8a5ec7a88e1ff2ba8"),
    # SAFER SK-64 (6 rounds) and SK-128 (10 rounds): the ETH reference implementation's examples
    # (as cryptlib quotes them); SAFER K-128 (12 rounds): Crypto++'s saferval.dat
    ("safer-sk64-r6", "0000000000000001", "0102030405060708", "151bff02ad11bf2d"),
    ("safer-sk64-r6", "0102030405060708", "0102030405060708", "5fce9ba2058438c7"),
    ("safer-sk128", "01020304050607080000000000000000", "0102030405060708", "ff7811e4b3a72e71"),
    ("safer-sk128", "00000000000000000102030405060708", "0102030405060708", "49c99d98a5bc5908"),
    ("safer-k128-r12", "08070605040302010807060504030201", "5051525354555657", "38e64dbf6e0f896e"),
    ("safer-k128-r12", "01020304050607080807060504030201", "6061626364656667", "113511c22e7936df")])
def test_block_refs_give_the_standards_known_answers(cipher, key, pt, ct):
    """block_refs.py's RC5, RC6, SKIPJACK, Noekeon, SAFER K-64, Anubis, Khazad, SAFER+ and SAFER
    SK-64, K-128 and SK-128 (at the rounds of their published answers), over which
    check_vectors.py runs the modes of those ciphers' files, reproduce the known answers of each
    cipher's own description, both ways; the indirect-key Noekeon shows why the rows name the direct-key mode."""
    refs = _load_checker().block_refs
    fn = {"rc5": refs.rc5, "rc6": refs.rc6, "skipjack": refs.skipjack, "noekeon": refs.noekeon,
          "noekeon-indirect": lambda k, d, dec=False: refs.noekeon(k, d, dec, indirect=True),
          "safer-k64": refs.safer_k64, "anubis": refs.anubis, "khazad": refs.khazad,
          "safer-plus": refs.safer_plus,
          "safer-sk64-r6": lambda k, d, dec=False: refs.safer_sk64(k, d, dec, rounds=6),
          "safer-sk128": refs.safer_sk128,
          "safer-k128-r12": lambda k, d, dec=False: refs.safer_k128(k, d, dec, rounds=12)}[cipher]
    key, pt, ct = bytes.fromhex(key), bytes.fromhex(pt), bytes.fromhex(ct)
    assert fn(key, pt) == ct
    assert fn(key, ct, True) == pt


@pytest.mark.parametrize("algo", ["aes-128-ccm-8", "aes-256-ccm-8"])
def test_ccm8_run_here_gives_the_files_vectors(algo):
    """check_vectors.py's own CCM over pyca's AES block function, with an 8-byte tag, gives
    every vector of the CCM-8 files (SP 800-38C Example 3 among them), as pyca's AESCCM does."""
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    vectors = json.loads((VECTORS / f"{algo}.json").read_text())["vectors"]
    if algo == "aes-128-ccm-8":
        assert vectors[0]["name"] == "SP 800-38C Example 3"
    for v in vectors:
        key, iv, aad, pt, ct, tag = (bytes.fromhex(v[f])
                                     for f in ("key", "iv", "aad", "pt", "ct", "tag"))
        assert len(tag) == 8
        box = checker.BlockAead("aes", "ccm", key, 8)
        assert box.encrypt(iv, pt, aad) == ct + tag, v["name"]
        assert box.decrypt(iv, ct + tag, aad) == pt, v["name"]


# RFC 2268 section 5: key, effective key bits, plaintext, ciphertext
RFC2268 = [("0000000000000000", 63, "0000000000000000", "ebb773f993278eff"),
           ("ffffffffffffffff", 64, "ffffffffffffffff", "278b27e42e2f0d49"),
           ("3000000000000000", 64, "1000000000000001", "30649edf9be7d2c2"),
           ("88", 64, "0000000000000000", "61a8a244adacccf0"),
           ("88bca90e90875a", 64, "0000000000000000", "6ccf4308974c267f"),
           ("88bca90e90875a7f0f79c384627bafb2", 64, "0000000000000000", "1a807d272bbe5db1"),
           ("88bca90e90875a7f0f79c384627bafb2", 128, "0000000000000000", "2269552ab0f85ca6"),
           ("88bca90e90875a7f0f79c384627bafb216f80a6f85920584c42fceb0be255daf1e", 129,
            "0000000000000000", "5b78d3a43dfff1f1")]


@pytest.mark.parametrize("key,ekb,pt,ct", RFC2268)
def test_rc2_here_gives_rfc2268_vectors(key, ekb, pt, ct):
    """check_vectors.py's RC2 (behind the rc2-gutmann vectors, 1024 effective bits) reproduces
    every vector of RFC 2268 section 5, both ways."""
    checker = _load_checker()
    key, pt, ct = bytes.fromhex(key), bytes.fromhex(pt), bytes.fromhex(ct)
    assert checker.rc2_ecb(key, pt, ekb) == ct
    assert checker.rc2_ecb(key, ct, ekb, decrypt=True) == pt


def test_desx_here_is_des_with_zero_whitening():
    """check_vectors.py's DESX (behind desx-cbc's vectors) with zero whitening keys gives FIPS 81's
    CBC example, and the whitening keys change every block."""
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    key, iv = bytes.fromhex("0123456789abcdef"), bytes.fromhex("1234567890abcdef")
    pt = b"Now is the time for all "
    want = bytes.fromhex("e5c7cdde872bf27c43e934008c389c0f683788499a7c05f6")
    assert checker.run_over_block("desx-cbc", key + bytes(16), iv, pt) == want
    whitened = checker.run_over_block("desx-cbc", key + bytes(8) + b"\x01" + bytes(7), iv, pt)
    assert all(a != b for a, b in zip((whitened[i:i + 8] for i in range(0, 24, 8)),
                                      (want[i:i + 8] for i in range(0, 24, 8))))


@pytest.mark.real
def test_gost28147_tc26z_block_here_is_magma():
    """The GOST 28147-89 block function behind the gost28147-*-cfb/cnt vectors (libgcrypt's,
    S-box by OID) with the TC26 Z S-box gives GOST R 34.12-2015's Magma example (A.2), once
    the big-endian key words and block are read as RFC 5830 reads them."""
    checker = _load_checker()
    try:
        key = bytes.fromhex("ffeeddccbbaa99887766554433221100f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
        le_key = b"".join(key[i:i + 4][::-1] for i in range(0, 32, 4))
        pt = bytes.fromhex("fedcba9876543210")
        ct = checker.gost28147_gcrypt(le_key, pt[::-1], checker.GOST_PARAM_OIDS["tc26z"])
    except checker.Unavailable:
        pytest.skip("libgcrypt with GOST 28147-89 is not installed")
    assert ct[::-1].hex() == "4ee901e5c2d8ca3d"


def test_gost_r_34_12_and_34_13_examples_run_here():
    """check_vectors.py's Magma, Kuznyechik, CMAC and CTR-ACPKM (behind the magma-*,
    kuznyechik-* and cmac-magma/kuznyechik vectors) give GOST R 34.12-2015's block examples
    (A.1, A.2) and GOST R 34.13-2015's CTR (A.1.2, A.2.2) and MAC (A.1.6, A.2.6) examples."""
    checker = _load_checker()
    km = bytes.fromhex("ffeeddccbbaa99887766554433221100f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
    kk = bytes.fromhex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef")
    assert checker.magma_ecb(km, bytes.fromhex("fedcba9876543210")).hex() == "4ee901e5c2d8ca3d"
    assert checker.kuznyechik_ecb(kk, bytes.fromhex("1122334455667700ffeeddccbbaa9988")).hex() == \
        "7f679d90bebc24305a468d42b9d4edcd"
    pm = bytes.fromhex("92def06b3c130a59db54c704f8189d204a98fb2e67a8024c8912409b17b57e41")
    pk = bytes.fromhex("1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a"
                       "112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011")
    assert checker.ctr_acpkm(checker.magma_ecb, 8, km, bytes.fromhex("12345678"), pm, 1024).hex() == \
        "4e98110c97b7b93c3e250d93d6e85d69136d868807b2dbef568eb680ab52a12d"
    assert checker.ctr_acpkm(checker.kuznyechik_ecb, 16, kk, bytes.fromhex("1234567890abcef0"), pk,
                             4096)[:16].hex() == "f195d8bec10ed1dbd57b5fa240bda1b8"
    assert checker._cmac(lambda b: checker.magma_ecb(km, b), pm, 8)[:4].hex() == "154e7210"
    assert checker._cmac(lambda b: checker.kuznyechik_ecb(kk, b), pk, 16)[:8].hex() == \
        "336f4d296059fbe3"


@pytest.mark.real
def test_gost28147_imit_here_matches_libgcrypt():
    """check_vectors.py's GOST 28147-89 MAC with the TC26 Z S-box equals libgcrypt's (which
    does not mesh keys) up to 1024 bytes, and differs past the key meshing."""
    checker = _load_checker()
    key = bytes(range(32))
    oid = checker.GOST_PARAM_OIDS["tc26z"]
    try:
        checker._gcrypt_imit(key, b"x", oid)
    except checker.Unavailable:
        pytest.skip("libgcrypt with GOST 28147-89 is not installed")
    for n in (1, 8, 13, 100, 1024):
        msg = bytes(i & 255 for i in range(n))
        assert checker.gost28147_imit(key, msg) == checker._gcrypt_imit(key, msg, oid), n
    msg = bytes(i & 255 for i in range(1032))
    assert checker.gost28147_imit(key, msg) != checker._gcrypt_imit(key, msg, oid)


@pytest.mark.parametrize("algo", ["aes-128-kw", "aes-192-kw", "aes-256-kw", "aes-128-kwp",
                                  "aes-192-kwp", "aes-256-kwp"])
def test_keywrap_here_gives_the_forward_files_vectors(algo):
    """check_vectors.py's KW/KWP (behind the -inv files, run there over AES's inverse cipher)
    gives every vector of the forward files (RFC 3394, RFC 5649, Wycheproof) over AES's
    forward cipher, and unwraps them."""
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    padded = algo.endswith("-kwp")
    for v in json.loads((VECTORS / f"{algo}.json").read_text())["vectors"]:
        key, pt, ct = (bytes.fromhex(v[f]) for f in ("key", "pt", "ct"))
        assert checker.kw_wrap(checker._aes_block(key, False), pt, padded) == ct, v["name"]
        assert checker.kw_unwrap(checker._aes_block(key, True), ct, padded) == pt, v["name"]


def test_cms_triple_des_wrap_here_gives_rfc_3217s_example():
    """check_vectors.py's RFC 3217 wrap, with the example's IV, gives RFC 3217 section 3.4's
    intermediate values and wrapped key, unwraps it to the CEK and that IV, and refuses a
    bit flipped anywhere in the wrapped key."""
    import hashlib
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    kek = bytes.fromhex("255e0d1c07b646dfb3134cc843ba8aa71f025b7c0838251f")
    cek = bytes.fromhex("2923bf85e06dd6ae529149f1f1bae9eab3a7da3d860d3e98")
    iv = bytes.fromhex("5dd4cbfc96f5453b")
    icv = bytes.fromhex("181b7e9686e04a4e")   # the RFC's CEK ICV and TEMP1
    temp1 = bytes.fromhex("cfc1a789c675dd2ab49a3204ef92cc035c1f973b7a7960f6a44dcc5f729d8449")
    assert hashlib.sha1(cek).digest()[:8] == icv
    assert checker._tdes_cbc(kek, iv, cek + icv, True) == temp1
    wrapped = checker.cms3des_wrap(kek, cek, iv)
    assert wrapped.hex() == ("690107618ef092b3b48ca1796b234ae9fa33ebb4159604037db5d6a84eb3aac2"
                             "768c632775a467d4")
    assert checker.cms3des_unwrap(kek, wrapped) == (cek, iv)
    for i in range(len(wrapped)):
        with pytest.raises(ValueError):
            checker.cms3des_unwrap(kek, wrapped[:i] + bytes([wrapped[i] ^ 0x10]) + wrapped[i + 1:])


@pytest.mark.real
def test_openssls_des3_wrap_unwraps_with_rfc_3217_here():
    """What OpenSSL's DES3-WRAP (the 3des-cms-wrap row's library call) wraps, under a random
    IV each time, unwraps with check_vectors.py's RFC 3217 to the key data, for the key-data
    lengths the row takes: the wrap direction checked outside the library, beside the core's
    unwrap of the RFC's example."""
    import ctypes
    import ctypes.util
    checker = _load_checker()
    name = ctypes.util.find_library("crypto")
    try:
        checker._crypto()
        lib = ctypes.CDLL(name) if name else None
    except (checker.Unavailable, OSError):
        lib = None
    if lib is None or not hasattr(lib, "EVP_CIPHER_fetch"):
        pytest.skip("pyca/cryptography or OpenSSL 3's libcrypto is not installed")
    vp, cp = ctypes.c_void_p, ctypes.c_char_p
    lib.EVP_CIPHER_fetch.restype, lib.EVP_CIPHER_fetch.argtypes = vp, (vp, cp, cp)
    lib.EVP_CIPHER_CTX_new.restype = vp
    lib.EVP_CipherInit_ex2.argtypes = (vp, vp, cp, cp, ctypes.c_int, vp)
    lib.EVP_CipherUpdate.argtypes = (vp, cp, ctypes.POINTER(ctypes.c_int), cp, ctypes.c_int)
    lib.EVP_CIPHER_CTX_free.argtypes = (vp,)
    lib.EVP_CIPHER_free.argtypes = (vp,)
    cipher = lib.EVP_CIPHER_fetch(None, b"DES3-WRAP", None)
    if not cipher:
        pytest.skip("this OpenSSL has no DES3-WRAP")
    kek = bytes.fromhex("255e0d1c07b646dfb3134cc843ba8aa71f025b7c0838251f")
    try:
        for n in (16, 24, 32, 64, 4096):
            kd = bytes((5 * i + n) & 0xFF for i in range(n))
            ctx = lib.EVP_CIPHER_CTX_new()
            assert lib.EVP_CipherInit_ex2(ctx, cipher, kek, None, 1, None) == 1
            seen = set()
            for _ in range(2):
                out, outl = ctypes.create_string_buffer(n + 32), ctypes.c_int(0)
                assert lib.EVP_CipherUpdate(ctx, out, ctypes.byref(outl), kd, n) == 1
                assert outl.value == n + 16
                got, iv = checker.cms3des_unwrap(kek, out.raw[:n + 16])
                assert got == kd, n
                seen.add(iv)
            lib.EVP_CIPHER_CTX_free(ctx)
            assert len(seen) == 2, "two wraps drew the same IV"
    finally:
        lib.EVP_CIPHER_free(cipher)


def test_siv_gcm_siv_and_key_wrap_run_here_give_pycas_aes():
    """check_vectors.py's SIV, GCM-SIV and key wraps over a block function (for the ciphers
    pyca has none of these for) give pyca's AES-SIV, AES-GCM-SIV and AES key wraps (RFC 5297,
    RFC 8452, RFC 3394, RFC 5649) for messages, AAD and key data of many lengths, and refuse a
    forged tag or wrapped key."""
    import random
    checker = _load_checker()
    try:
        checker._crypto()
        from cryptography.hazmat.primitives import keywrap
        from cryptography.hazmat.primitives.ciphers import aead
    except (checker.Unavailable, ImportError):
        pytest.skip("pyca/cryptography is not installed")
    rnd = random.Random(18)
    data = lambda n: bytes(rnd.randrange(256) for _ in range(n))  # noqa: E731
    for n, an in ((0, 0), (1, 0), (15, 5), (16, 16), (17, 20), (33, 1), (64, 0)):
        nonce, pt, ad = data(12), data(n), data(an)
        for klen in (16, 24, 32):   # 24: OpenSSL's extension, which pyca (OpenSSL) has too
            key = data(klen)
            got = checker.BlockSiv("aes", "gcm-siv", key).encrypt(nonce, pt, ad)
            assert got == aead.AESGCMSIV(key).encrypt(nonce, pt, ad), (klen, n, an)
        for klen in (32, 48, 64):
            key = data(klen)
            box = checker.BlockSiv("aes", "siv", key)
            got = box.encrypt(nonce, pt, ad)
            assert got == checker._Siv(aead.AESSIV(key)).encrypt(nonce, pt, ad), (klen, n, an)
            assert box.decrypt(nonce, got, ad) == pt
            with pytest.raises(ValueError):
                box.decrypt(nonce, got[:-1] + bytes([got[-1] ^ 1]), ad)
    for klen in (16, 24, 32):
        kek = data(klen)
        for n in (16, 24, 40):
            kd = data(n)
            assert checker.BlockKeyWrap("aes", False).wrap(kek, kd) == keywrap.aes_key_wrap(kek, kd)
        for n in (1, 7, 8, 9, 20, 31):
            kd, box = data(n), checker.BlockKeyWrap("aes", True)
            wrapped = box.wrap(kek, kd)
            assert wrapped == keywrap.aes_key_wrap_with_padding(kek, kd), n
            assert box.unwrap(kek, wrapped) == kd
            with pytest.raises(ValueError):
                box.unwrap(kek, bytes([wrapped[0] ^ 1]) + wrapped[1:])


def test_gcm_siv_run_here_gives_rfc_8452s_vectors():
    """check_vectors.py's GCM-SIV over pyca's AES block function, which computed
    aes-192-gcm-siv.json (no standard has vectors for a 192-bit key), reproduces RFC 8452's
    own AEAD_AES_128_GCM_SIV and AEAD_AES_256_GCM_SIV vectors, both ways."""
    checker = _load_checker()
    try:
        checker._crypto()
    except checker.Unavailable:
        pytest.skip("pyca/cryptography is not installed")
    for algo in ("aes-128-gcm-siv", "aes-256-gcm-siv"):
        for v in json.loads((VECTORS / f"{algo}.json").read_text())["vectors"]:
            key, iv, aad, pt, ct, tag = (bytes.fromhex(v[f])
                                         for f in ("key", "iv", "aad", "pt", "ct", "tag"))
            box = checker.BlockSiv("aes", "gcm-siv", key)
            assert box.encrypt(iv, pt, aad) == ct + tag, v["name"]
            assert box.decrypt(iv, ct + tag, aad) == pt, v["name"]


@pytest.mark.real
def test_gost_key_meshing_run_here_gives_gnutls_cfb():
    """check_vectors.py's GOST 28147-89 with RFC 4357's CryptoPro-A S-boxes and key meshing,
    in CFB, gives GnuTLS's GOST28147-CPA-CFB over several meshings, both ways."""
    checker = _load_checker()
    key, iv = bytes(range(32)), bytes(range(8))
    pt = bytes(i * 7 & 0xFF for i in range(3000))
    try:
        want = checker._gnutls_gost_cfb(key, iv, pt)
    except checker.Unavailable as e:
        pytest.skip(str(e))
    assert checker.run_over_block("gost28147-mesh-cfb", key, iv, pt) == want
    assert checker.run_over_block("gost28147-mesh-cfb", key, iv, want, decrypt=True) == pt
    # without the meshing the stream would differ after the first KiB
    plain = checker.over_block("cfb", lambda d: checker.gost28147_ecb(
        key, d, sbox=checker.GOST_CRYPTOPRO_A_SBOX), None, 8, iv, pt)
    assert plain[:1024] == want[:1024] and plain[1024:] != want[1024:]


def test_tiger_run_here_gives_the_authors_results():
    """check_vectors.py's Tiger, its S-boxes generated as the authors' reference code does,
    gives the Tiger page's results for Tiger and Tiger2."""
    checker = _load_checker()
    assert checker.tiger(b"").hex() == "3293ac630c13f0245f92bbb1766e16167a4e58492dde73f3"
    assert checker.tiger(b"abc").hex() == "2aab1484e8c158f2bfb8c5ff41b57a525129131c957b5f93"
    assert checker.tiger(b"", 0x80).hex() == "4441be75f6018773c206c22745374b924aa8313fef919f41"


def _bluetooth_e1(refs, key, rand, addr):
    """Bluetooth's E1 (Core Specification, Vol 2, Part H, the security specification) over block_refs.py's SAFER+:
    Ar is SAFER+; A'r is SAFER+ whose first round's input is added into the third round's
    input (XOR at the exp positions, addition elsewhere), under the key with its offsets."""
    mix = lambda x, y: [a ^ b if j in refs._SAFERP_EXP_AT else (a + b) & 0xFF  # noqa: E731
                        for j, (a, b) in enumerate(zip(x, y))]
    ar = refs.safer_plus(key, rand)
    x = [((a ^ r) + addr[j % 6]) & 0xFF for j, (a, r) in enumerate(zip(ar, rand))]
    offsets = (233, 229, 223, 193, 179, 167, 149, 131)
    k = refs._saferp_keys(bytes((v + offsets[j % 8]) & 0xFF if j in (0, 2, 4, 6, 9, 11, 13, 15)
                                else v ^ offsets[j % 8] for j, v in enumerate(key)))
    first = x
    for r in range(8):
        if r == 2:
            x = mix(x, first)
        x = [(refs._SAFER_EXP[v ^ k[2 * r][j]] + k[2 * r + 1][j]) & 0xFF if j in refs._SAFERP_EXP_AT
             else refs._SAFER_LOG[(v + k[2 * r][j]) & 0xFF] ^ k[2 * r + 1][j]
             for j, v in enumerate(x)]
        for layer in range(4):
            x = refs._saferp_pht_layer(x)
            if layer < 3:
                x = [x[i] for i in refs._ARMENIAN_SHUFFLE]
    return bytes(mix(x, k[16]))


@pytest.mark.parametrize("key,rand,addr,sres_aco", [
    # Bluetooth Core Specification, Vol 2, Part G, the four E1 sample data sets (SRES || ACO),
    # as the KNOB project's E1 tests carry them
    ("00000000000000000000000000000000", "00000000000000000000000000000000", "000000000000",
     "056c0fe648afcdd4bd40fef76693b113"),
    ("159dd9f43fc3d328efba0cd8a861fa57", "bc3f30689647c8d7c5a03ca80a91eceb", "7ca89b233c2d",
     "8d5205c53ed75df4abd9af638d144e94"),
    ("45298d06e46bac21421ddfbed94c032b", "0891caee063f5da1809577ff94ccdcfb", "c62f19f6ce98",
     "00507e5f2a5f19fbf60907e69f39ca9f"),
    ("35949a914225fabad91995d226de1d92", "0ecd61782b4128480c05dc45542b1b8c", "f428f0e624b3",
     "80e5629ca6fe4dcde3924611d3cc6ba1")])
def test_block_refs_safer_plus_gives_bluetooth_e1_sample_data(key, rand, addr, sres_aco):
    """block_refs.py's SAFER+ (Bluetooth's Ar) reproduces the specification's E1 outputs under
    non-zero keys too, beyond the one plain SAFER+ answer the sample data shows."""
    refs = _load_checker().block_refs
    out = _bluetooth_e1(refs, bytes.fromhex(key), bytes.fromhex(rand), bytes.fromhex(addr))
    assert out.hex() == sres_aco


#: Records of OpenSSL's stitched AES-128-CBC-HMAC-SHA1 as AWS-LC's tests carry them (aws/aws-lc,
#: crypto/cipher_extra/test/aes_128_cbc_sha1_tls_stitch_tests.txt: "non-minimal padding", "bad
#: padding values", "no padding"): KEY is the MAC key then the AES key, IN the block R then the
#: content, AD's length counts R, CT || TAG is the record; the last two must be refused.
AWSLC_TLS_SHA1 = [
    ("afa22993a340b9b3c589c7481df3f4183aa23fd8d7efd88503f78b8ed1c8e9ba2fd6773e",
     "0d0c302a5f47e037446f5891d77df66086d641b877", "97b684e0fb56f97c3903020015",
     "cd723daafbdb635d5029479b12896d6a5b7a29d1a9"
     "2c51cc3ce5d2829c8adc9e686b6ce3ce50db0e2a9508e7a995c8c57d2397ae8fdb8405df3ded2a3b06d868", True),
    ("afa22993a340b9b3c589c7481df3f4183aa23fd8d7efd88503f78b8ed1c8e9ba2fd6773e",
     "0d0c302a5f47e037446f5891d77df66086d641b877", "97b684e0fb56f97c3903020015",
     "cd723daafbdb635d5029479b12896d6a5b7a29d1a9" "2c51cc3ce5d2829c8adc9ecd56aff6207dd52c750d158fd867677b",
     False),
    ("2a5f47e037446f5891d77df660ed82933f62be8dc55b436965aabe477e0cdd46be99371e",
     "b8da7dac997deafd64b1fc65de39f4f086d641b87797b684e0fb56f97c3961d8afa22993a340b9b3c589c7481df3f418"
     "3aa23fd8d7efd88503f78b8e", "d1c8e9ba2fd6773e0d0302003c",
     "2ec6f187ad56955323498eafee2ca74fe54eb7d0eb5ce10130c15f8e7df5b112c442bf1860b4e86b4f1119f25c2e80b4"
     "9b38354ed928ad53af6098b8" "b5a239764c8fb626cbbce7c47ea93c3b3a8e9fd2", False),
]


@pytest.mark.parametrize("key,inp,ad,record,valid", AWSLC_TLS_SHA1)
def test_tls_cbc_record_here_opens_aws_lcs_stitched_records(key, inp, ad, record, valid):
    """check_vectors.py's TLS record (the aes-*-cbc-hmac-* files) against another library's:
    it opens AWS-LC's record (any valid padding) and refuses the broken ones, and its own record
    of the same content, CBC-encrypted from AWS-LC's mask (R itself, where the files take a zero
    mask), has the same IV field, content and MAC blocks (only the padding differs)."""
    from cryptography.exceptions import InvalidTag
    checker = _load_checker()
    key, inp, ad, record = (bytes.fromhex(x) for x in (key, inp, ad, record))
    ours_key = key[20:] + key[:20]                     # the AES key, then the MAC key
    box = checker.TlsCbcRecord("aes-128-cbc-hmac-sha1", ours_key)
    header = ad[:11] + (len(inp) - 16).to_bytes(2, "big")   # the length of the content alone
    if not valid:
        with pytest.raises((InvalidTag, ValueError)):
            box.decrypt(inp[:16], record, header)
        return
    assert box.decrypt(inp[:16], record, header) == inp[16:]
    sealed = box.encrypt(inp[:16], inp[16:], header, mask=inp[:16])
    whole = (len(inp) + 20) // 16 * 16                 # blocks before the first padding byte
    assert sealed[:whole] == record[:whole] and sealed != record
