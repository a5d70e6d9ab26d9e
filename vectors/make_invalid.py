#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write vectors/invalid/ALGO.json for every AEAD, MAC and key wrap: must-fail cases derived from
one vector of the standard file ALGO.json, each with one change (see README.md, "Invalid
vectors"); for AES key wrap with padding also Wycheproof's wrapped keys with a modified padding.

Usage: make_invalid.py   (rewrites the files of invalid/ beside this script; run check_vectors.py
afterwards: it verifies with independent implementations that each case is refused)
"""
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
AEADS = ("aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ocb",
         "aes-192-ocb", "aes-256-ocb", "aes-128-ccm", "aes-192-ccm", "aes-256-ccm", "aes-128-eax",
         "aes-128-siv", "aes-192-siv", "aes-256-siv", "aes-128-gcm-siv", "aes-256-gcm-siv",
         "xchacha20-poly1305", "chacha20-poly1305-nonce64")
MACS = ("hmac-md5", "hmac-sha1", "hmac-sha224", "hmac-sha256", "hmac-sha384", "hmac-sha512",
        "poly1305", "cmac-aes-128", "cmac-aes-256", "gmac-aes-128", "umac-64", "umac-128")
#: HMAC over the other hashes
MACS_HMAC = ("hmac-sha512-224", "hmac-sha512-256", "hmac-sha3-224", "hmac-sha3-256",
             "hmac-sha3-384", "hmac-sha3-512", "hmac-ripemd160", "hmac-sm3", "hmac-streebog-256",
             "hmac-streebog-512", "hmac-gostr3411-94", "hmac-whirlpool", "hmac-tiger", "hmac-md4",
             "hmac-blake2b-160", "hmac-blake2b-256", "hmac-blake2b-384", "hmac-blake2b-512",
             "hmac-blake2s-128", "hmac-blake2s-160", "hmac-blake2s-224", "hmac-blake2s-256",
             "hmac-md2", "hmac-gostr3411-94-test", "hmac-ripemd128", "hmac-ripemd256",
             "hmac-ripemd320", "hmac-chc-aes128")
#: block-cipher MACs over other ciphers and key sizes
MACS_CIPHER = ("cmac-aes-192", "cmac-3des", "cmac-camellia-128", "cmac-camellia-192",
               "cmac-camellia-256", "cmac-sm4", "gmac-aes-192", "gmac-aes-256", "poly1305-aes",
               "cmac-cast5", "cmac-blowfish", "cmac-idea", "cmac-seed", "cmac-twofish-256",
               "cmac-serpent-256", "gmac-camellia-128", "gmac-seed", "gmac-twofish-256",
               "gmac-serpent-256", "poly1305-camellia", "poly1305-seed", "poly1305-twofish",
               "poly1305-serpent", "cmac-rc2", "cmac-gost28147", "gost28147-imit",
               # over ARIA and SM4 (libgcrypt 1.11)
               "cmac-aria-128", "cmac-aria-192", "cmac-aria-256", "gmac-aria-128",
               "gmac-aria-192", "gmac-aria-256", "gmac-sm4", "poly1305-aria", "poly1305-sm4")
#: short-input PRFs and NaCl's crypto_auth
MACS_OTHER = ("gost28147-tc26z-imit", "cmac-magma", "cmac-kuznyechik", "umac-96", "siphash-2-4", "siphash-2-4-128", "hmac-sha512-trunc256", "blake2b-mac", "blake2s-mac",
              "kmac-128", "kmac-256")
KEYWRAPS = ("aes-128-kw", "aes-192-kw", "aes-256-kw", "aes-128-kwp", "aes-192-kwp", "aes-256-kwp",
            "aes-128-kw-inv", "aes-192-kw-inv", "aes-256-kw-inv", "aes-128-kwp-inv", "aes-192-kwp-inv",
            "aes-256-kwp-inv")
#: Wycheproof (C2SP/wycheproof) testvectors_v1/aes_kwp_test.json, "ModifiedPadding" cases: a
#: wrapped key whose initial value or padding was changed before wrapping; pt is the key data.
KWP_MODIFIED = {
    "aes-128-kwp": [
        ("Wycheproof tcId 26", "4f710eb6b5e28703becfc3dc52fa8bc1", "a828cbda9b5ff0ae37",
         "4cdd2962f23ec897d41d14c3f818516c055799185f459e2d"),
        ("Wycheproof tcId 34", "4f710eb6b5e28703becfc3dc52fa8bc1", "a828cbda9b5ff0ae374f84fa01d070",
         "a0c51e687c46f342c78e3c59eee076a85312206a37213ac3"),
    ],
    "aes-256-kwp": [
        ("Wycheproof tcId 186", "4f710eb6b5e28703becfc3dc52fa8bc1dd44a4a6d38a84b4f94e89ac32d987e7",
         "a828cbda9b5ff0ae37", "98428fb83dc207033c1585e0242e699be98e0001f1ee15ba"),
        ("Wycheproof tcId 194", "4f710eb6b5e28703becfc3dc52fa8bc1dd44a4a6d38a84b4f94e89ac32d987e7",
         "a828cbda9b5ff0ae374f84fa01d070", "f795cf444efd94bd6a561d8cb0703ee0e979c073aa66fdaa"),
        ("Wycheproof tcId 202", "4f710eb6b5e28703becfc3dc52fa8bc1dd44a4a6d38a84b4f94e89ac32d987e7",
         "a828cbda9b5ff0ae374f84fa01d070a5", "7fd3ad3aee0545da1ed3a54d5a198a2c76cf8290c011c042"),
    ],
}
#: MACs whose key has one fixed length (a key one byte short is a wrong length); UMAC is left
#: out because the independent check reaches Nettle through ctypes, which would read past it.
FIXED_KEY = ("poly1305", "cmac-aes-128", "cmac-aes-256", "gmac-aes-128", "siphash-2-4",
             "siphash-2-4-128") + MACS_CIPHER


def flip(hexstr: str, index: int, bit: int) -> str:
    b = bytearray.fromhex(hexstr)
    b[index] ^= bit
    return b.hex()


def short(hexstr: str) -> str:
    return hexstr[:-2]


#: Prefixes of the right tag a receiver must refuse as it refuses a forged one: none at all,
#: one byte, the shortest truncations the standards allow for some AEAD (4 and 8 bytes: CCM,
#: GCM's 32 and 64-bit tags), one byte short of a 16-byte tag. A row's tag is its own length,
#: so each, where shorter than the row's tag, must fail.
TAG_PREFIXES = (0, 1, 4, 8, 15)


def aead_cases(v: dict) -> list[tuple[str, dict]]:
    tag, ct = v["tag"], v["ct"]
    n = len(tag) // 2
    prefixes = [(f"tag cut to {k} byte{'s' if k != 1 else ''}", {"tag": tag[:2 * k]})
                for k in TAG_PREFIXES if k < n]
    return prefixes + [
        ("first tag byte flipped", {"tag": flip(tag, 0, 0x01)}),
        ("middle tag byte flipped", {"tag": flip(tag, n // 2, 0x80)}),
        ("last tag byte flipped", {"tag": flip(tag, n - 1, 0x01)}),
        # A receiver splits the last tag-length bytes off what arrives: one tag byte short,
        # the last ciphertext byte becomes the tag's first.
        ("tag truncated by one byte", {"ct": short(ct), "tag": ct[-2:] + short(tag)}),
        ("ciphertext bit flipped", {"ct": flip(ct, 0, 0x01)}),
        ("ciphertext one byte short", {"ct": short(ct)}),
        ("ciphertext one byte long", {"ct": ct + "00"}),
        ("AAD one byte long", {"aad": v["aad"] + "00"}),
        ("nonce one byte short", {"iv": short(v["iv"])}),
        ("nonce one byte long", {"iv": v["iv"] + "00"}),
    ]


def mac_cases(algo: str, v: dict) -> list[tuple[str, dict]]:
    mac = v["mac"]
    n = len(mac) // 2
    cases = [
        ("first mac byte flipped", {"mac": flip(mac, 0, 0x01)}),
        ("middle mac byte flipped", {"mac": flip(mac, n // 2, 0x80)}),
        ("last mac byte flipped", {"mac": flip(mac, n - 1, 0x01)}),
        ("mac truncated by one byte", {"mac": short(mac)}),
        ("message one byte short", {"msg": short(v["msg"])}),
    ]
    if algo in FIXED_KEY:
        cases.append(("key one byte short", {"key": short(v["key"])}))
    if "iv" in v:
        cases.append(("nonce one byte short", {"iv": short(v["iv"])}))
    return cases


#: Key wraps whose KEK is a DES key: the low bit of each byte is parity, which DES ignores,
#: so the KEK's flipped bit is a key bit.
DES_KEK = ("3des-cms-wrap",)


def one_block_wrap(algo: str, kek: bytes, key_data: bytes) -> str:
    """RFC 3394's W run over one 8-byte block (n = 1), with the row's cipher: what a wrap
    that let one block through would give. RFC 3394 (section 2) wraps two blocks at least,
    so its unwrap must refuse it, although its integrity check would pass."""
    sys.path.insert(0, str(HERE))
    import check_vectors as cv   # independent block functions (pyca, Nettle, openssl)
    family = re.fullmatch(r"([a-z0-9]+?)(?:-\d+)?-kw(-inv)?", algo)
    enc, dec, _ = cv.block_cipher(family.group(1), kek)
    return cv.kw_wrap(dec if family.group(2) else enc, key_data).hex()


def keywrap_cases(v: dict, kek_bit: int = 0x01, algo: str = "") -> list[tuple[str, dict]]:
    """A wrapped key with one change; pt (kept) says how much key data the unwrap expects."""
    ct = v["ct"]
    n = len(ct) // 2
    one_block = []
    if algo in ONE_BLOCK:
        data = bytes.fromhex(v["pt"])[:8]
        one_block = [("one block of key data (RFC 3394: two at least)",
                      {"pt": data.hex(), "ct": one_block_wrap(algo, bytes.fromhex(v["key"]), data)})]
    return one_block + [
        ("first byte (integrity check) flipped", {"ct": flip(ct, 0, 0x01)}),
        ("middle byte flipped", {"ct": flip(ct, n // 2, 0x80)}),
        ("last byte flipped", {"ct": flip(ct, n - 1, 0x01)}),
        ("KEK bit flipped", {"key": flip(v["key"], 0, kek_bit)}),
        # Without pt: the key data is what the wrapped key's length leaves.
        ("one 8-byte block short", {"ct": ct[:-16], "pt": None}),
    ]


def base_vector(doc: dict, kind: str, tag_len: int) -> dict:
    """The first vector with a message (and, for a MAC, the whole tag and no repeat)."""
    for v in doc["vectors"]:
        if kind == "aead" and v["pt"] and len(v["tag"]) // 2 == tag_len:
            return v
        if kind == "keywrap" and len(v["ct"]) >= 48:
            return v
        if kind == "mac" and v["msg"] and "repeat" not in v and len(v["mac"]) // 2 == tag_len:
            return v
    raise SystemExit(f"{doc['algo']}: no vector to derive from")


def write(algo: str, kind: str, tag_len: int) -> Path:
    doc = json.loads((HERE / f"{algo}.json").read_text())
    base = base_vector(doc, kind, tag_len)
    keep = {"aead": ("key", "iv", "aad", "ct", "tag"), "mac": ("key", "iv", "msg", "mac"),
            "keywrap": ("key", "pt", "ct")}[kind]
    cases = {"aead": aead_cases,
             "keywrap": lambda v: keywrap_cases(v, 0x80 if algo in DES_KEK else 0x01, algo),
             }.get(kind, lambda v: mac_cases(algo, v))
    vectors = []
    for what, change in cases(base):
        v = {"name": f"{base['name']}: {what}"}
        v.update({f: base[f] for f in keep if f in base})
        v.update(change)
        v = {f: x for f, x in v.items() if x is not None}
        v.update({"result": "invalid", "expect": "auth_failure"})
        vectors.append(v)
    for name, key, pt, ct in KWP_MODIFIED.get(algo, []):
        vectors.append({"name": f"{name}: modified padding", "key": key, "pt": pt, "ct": ct,
                        "result": "invalid", "expect": "auth_failure"})
    out = {
        "format": "cipherbench-vectors/1",
        "algo": algo,
        "source": f"derived from {algo}.json, vector {base['name']!r} ({doc['source']}): "
                  "one change each, which must make "
                  + {"aead": "decryption fail", "mac": "the mac differ",
                     "keywrap": "the unwrap fail"}[kind]
                  + ("; and Wycheproof (C2SP/wycheproof) testvectors_v1/aes_kwp_test.json's "
                     "ModifiedPadding cases" if algo in KWP_MODIFIED else ""),
        "notes": "must-fail cases written by make_invalid.py; check_vectors.py checks with an "
                 "independent implementation that each is refused",
        "vectors": vectors,
    }
    path = HERE / "invalid" / f"{algo}.json"
    with open(path, "w") as f:
        f.write("{\n")
        for k in ("format", "algo", "source", "notes"):
            f.write(f"  {json.dumps(k)}: {json.dumps(out[k])},\n")
        f.write('  "vectors": [\n')
        f.write(",\n".join("    " + json.dumps(v) for v in vectors))
        f.write("\n  ]\n}\n")
    return path


def tag_sizes() -> dict[str, int]:
    """{name: tag (MAC, digest) bytes} from the core's table, core/algorithms.c."""
    row = re.compile(r'\{\s*"([^"]+)",\s*CB_\w+,\s*\d+,\s*\d+,\s*(\d+),')
    return {m.group(1): int(m.group(2))
            for m in row.finditer((HERE.parent / "core" / "algorithms.c").read_text())}


#: GCM, CCM, EAX and OCB over the other 128-bit block ciphers, EAX at AES's other key sizes.
GRID_AEADS = ("camellia-128-gcm", "camellia-192-gcm", "camellia-256-gcm", "aria-128-gcm",
              "aria-192-gcm", "aria-256-gcm", "sm4-gcm", "seed-gcm", "twofish-128-gcm",
              "twofish-256-gcm", "serpent-128-gcm", "serpent-192-gcm", "serpent-256-gcm",
              "camellia-128-ccm", "camellia-192-ccm", "camellia-256-ccm", "aria-128-ccm",
              "aria-192-ccm", "aria-256-ccm", "sm4-ccm", "seed-ccm", "twofish-128-ccm",
              "twofish-256-ccm", "serpent-128-ccm", "serpent-192-ccm", "serpent-256-ccm",
              "camellia-128-eax", "camellia-192-eax", "camellia-256-eax", "aria-128-eax",
              "aria-192-eax", "aria-256-eax", "sm4-eax", "seed-eax", "twofish-128-eax",
              "twofish-256-eax", "serpent-128-eax", "serpent-192-eax", "serpent-256-eax",
              "camellia-128-ocb", "camellia-192-ocb", "camellia-256-ocb", "aria-128-ocb",
              "aria-192-ocb", "aria-256-ocb", "sm4-ocb", "seed-ocb", "twofish-128-ocb",
              "twofish-256-ocb", "serpent-128-ocb", "serpent-192-ocb", "serpent-256-ocb",
              "aes-192-eax", "aes-256-eax", "rc6-128-gcm", "rc6-128-ccm", "rc6-128-ocb",
              "noekeon-direct-gcm", "noekeon-direct-ccm", "noekeon-direct-ocb", "noekeon-gcm",
              "noekeon-ccm", "noekeon-ocb", "anubis-128-gcm", "anubis-128-ccm", "anubis-128-ocb",
              "safer-plus-128-gcm", "safer-plus-128-ccm", "safer-plus-128-ocb")


#: EAX over the 64-bit block ciphers: a tag of one block (8 bytes).
EAX64 = ("des-eax", "3des-eax", "blowfish-eax", "cast5-eax", "idea-eax", "gost28147-eax",
         "rc2-eax", "rc2-40-eax")

#: SIV and GCM-SIV over the other 128-bit block ciphers (GCM-SIV at 128 and 256-bit keys).
_OTHER128 = ("twofish-128", "twofish-256", "serpent-128", "serpent-192", "serpent-256", "seed",
             "camellia-128", "camellia-192", "camellia-256", "sm4")
SIV_OTHER = tuple(f"{c}-siv" for c in _OTHER128) + tuple(
    f"{c}-gcm-siv" for c in _OTHER128 if "192" not in c)
#: key wrap over the other 128-bit block ciphers
KEYWRAPS_OTHER = tuple(f"{c}-{m}" for c in _OTHER128 for m in ("kw", "kwp"))
#: SIV and GCM-SIV over ARIA (libgcrypt 1.11), as over the ciphers above
_ARIA = ("aria-128", "aria-192", "aria-256")
SIV_ARIA = tuple(f"{c}-siv" for c in _ARIA) + ("aria-128-gcm-siv", "aria-256-gcm-siv")
#: and RFC 3394's key wrap over ARIA
KEYWRAPS_ARIA = tuple(f"{c}-kw" for c in _ARIA)

#: RFC 3394's key wraps (not RFC 5649's, whose one block is its own case, nor RFC 3217's): each
#: gets a one-block wrap to refuse.
ONE_BLOCK = tuple(a for a in KEYWRAPS + KEYWRAPS_OTHER + KEYWRAPS_ARIA if "-kwp" not in a)

#: CCM with an 8-byte tag (RFC 6655's CCM_8).
CCM8 = ("aes-128-ccm-8", "aes-256-ccm-8")

#: NaCl's secretbox, XSalsa20-Poly1305 and XChaCha20-Poly1305 (no associated data: the case
#: with a byte of it must be refused as a size the API has no place for).
SECRETBOX = ("xsalsa20-poly1305", "xchacha20-poly1305-secretbox")
#: TLS 1.1/1.2 records through OpenSSL's stitched AES-CBC-HMAC: the tag is the record beyond
#: the message (IV field, MAC, padding), 48 or 64 bytes.
TLS_RECORDS = ("aes-128-cbc-hmac-sha1", "aes-256-cbc-hmac-sha1", "aes-128-cbc-hmac-sha256",
               "aes-256-cbc-hmac-sha256")
#: AES-GCM-SIV with a 192-bit key (OpenSSL 3.2's; RFC 8452 defines 128 and 256 bits alone).
GCM_SIV_192 = ("aes-192-gcm-siv",)


def main() -> int:
    sizes = tag_sizes()
    for algo in AEADS + GRID_AEADS + SIV_OTHER + SIV_ARIA + SECRETBOX + GCM_SIV_192:
        print(write(algo, "aead", 16).relative_to(HERE))
    for algo in EAX64 + CCM8:
        print(write(algo, "aead", 8).relative_to(HERE))
    for algo in TLS_RECORDS:
        print(write(algo, "aead", sizes[algo]).relative_to(HERE))
    for algo in MACS + MACS_HMAC + MACS_CIPHER + MACS_OTHER:
        print(write(algo, "mac", sizes[algo]).relative_to(HERE))
    for algo in KEYWRAPS + KEYWRAPS_OTHER + KEYWRAPS_ARIA + DES_KEK:
        print(write(algo, "keywrap", 8).relative_to(HERE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
