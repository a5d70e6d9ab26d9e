# SPDX-License-Identifier: GPL-3.0-or-later
"""The catalog: one registry of every algorithm cipherbench knows.

Each entry has the canonical name the core uses (core/algorithms.c), its kind and sizes, its
names in libraries and protocols (for the advisor's config lines), and a security grade with a
one-line reason and a reference. Look-ups: ``get(name)``, ``match(patterns)`` (names and
globs), ``suggest(name)`` ("did you mean ...").
"""
from __future__ import annotations

import difflib
import fnmatch
from dataclasses import dataclass, field

#: Grades, best first. ``reference`` is for the harness's memcpy/null rows.
GRADES = ("recommended", "acceptable", "legacy", "broken", "reference")
KINDS = ("aead", "cipher", "hash", "mac", "ref", "keywrap")


@dataclass(frozen=True)
class Grade:
    """A security grade with its one-line reason and reference."""

    level: str
    reason: str
    reference: str


@dataclass(frozen=True)
class Algorithm:
    """One algorithm: kind, grade and names in protocols (empty where there is none).

    ``block`` is the primitive's own block in bytes (the cipher's block, 1 for streams; the
    hash's compression block), which grades depend on (64-bit blocks, CBC records). Key, nonce
    and tag sizes are the core's facts: ``cipherbench-core list`` prints them with each row."""

    name: str
    kind: str
    block: int
    grade: Grade
    openssl: str = ""          # EVP / `openssl enc|dgst` name
    gnutls: str = ""           # GnuTLS priority-string name
    iana_tls: tuple[str, ...] = ()   # IANA TLS cipher suites using it (1.3 first)
    openssh: tuple[str, ...] = ()    # ssh_config Ciphers / MACs names
    gnupg: str = ""            # gpg --cipher-algo / --digest-algo name
    cryptsetup: str = ""       # cryptsetup --cipher spec
    aliases: tuple[str, ...] = field(default=())


# -- grades ---------------------------------------------------------------------------------
_AEAD = Grade("recommended", "modern AEAD: confidentiality and integrity in one pass",
              "RFC 5116; NIST SP 800-38D")
_GCM = Grade("recommended", "AEAD; fast with AES and carry-less multiply instructions",
             "NIST SP 800-38D; RFC 8446")
_CHACHA_AEAD = Grade("recommended", "AEAD; fast without AES instructions", "RFC 8439; RFC 8446")
_OCB = Grade("recommended", "one-pass AEAD, patents released", "RFC 7253")
_CCM = Grade("recommended", "AEAD, two AES passes (slower than GCM)",
             "NIST SP 800-38C; RFC 8446")
_EAX = Grade("recommended", "two-pass AEAD (CTR and OMAC) with a proof of security; any nonce "
             "length", "Bellare, Rogaway, Wagner (FSE 2004); RFC 4880bis")
_SIV = Grade("recommended", "nonce-misuse-resistant AEAD: a repeated nonce reveals only that "
             "two messages were equal; two passes over the data (slower than GCM)",
             "RFC 5297")
_GCM_SIV = Grade("recommended", "nonce-misuse-resistant AEAD near GCM's speed with AES and "
                 "carry-less multiply instructions", "RFC 8452")
# OpenSSL 3.2's AES-GCM-SIV with a 192-bit key
_GCM_SIV_192 = Grade("acceptable", "AES-GCM-SIV with a 192-bit key, which RFC 8452 leaves out: "
                     "OpenSSL extends the RFC's key derivation to it, sound by the same "
                     "construction, but without standard vectors or other implementations to "
                     "talk to; prefer AES-128-GCM-SIV or AES-256-GCM-SIV",
                     "RFC 8452 section 4; OpenSSL 3.2 (EVP_CIPHER-AES)")
_TLS_CBC = Grade("legacy", "TLS 1.0-1.2's CBC records, MAC-then-encrypt: the receiver must check "
                 "padding and MAC in constant time or leak plaintext (Lucky Thirteen, padding "
                 "oracles); no TLS 1.3 suite uses them, prefer an AEAD suite",
                 "RFC 5246 section 6.2.3.2; AlFardan, Paterson (IEEE S&P 2013); RFC 7366; RFC 9325")
_GCM_OTHER = Grade("acceptable", "GCM over a 128-bit block cipher without known practical "
                   "attack: a sound AEAD, but without AES's scrutiny and CPU instructions; prefer "
                   "AES-GCM or ChaCha20-Poly1305", "NIST SP 800-38D; RFC 6367; RFC 6209; RFC 8998")
_EAX_OTHER = Grade("acceptable", "EAX over a 128-bit block cipher without known practical "
                   "attack: a sound two-pass AEAD, but without AES's scrutiny and CPU "
                   "instructions; prefer AES-GCM or ChaCha20-Poly1305",
                   "Bellare, Rogaway, Wagner (FSE 2004)")
_CCM8 = Grade("acceptable", "CCM with an 8-byte tag: sound, but each forgery attempt succeeds with "
               "probability 2^-64 and many tries add up; meant for constrained links, not "
               "marked Recommended for TLS", "RFC 6655; NIST SP 800-38C Appendix B; RFC 8447")
_EAX64 = Grade("legacy", "EAX over a 64-bit block cipher: a 64-bit tag, and the block's "
               "birthday bound (Sweet32) on the data under one key", "Bellare, Rogaway, Wagner "
               "(FSE 2004); CVE-2016-2183")
_OCB_OTHER = Grade("acceptable", "OCB over a 128-bit block cipher without known practical "
                   "attack: a sound one-pass AEAD, but without AES's scrutiny and CPU "
                   "instructions; prefer AES-GCM or ChaCha20-Poly1305", "RFC 7253")
_CCM_OTHER = Grade("acceptable", "CCM over a 128-bit block cipher without known practical "
                   "attack: a sound AEAD in two passes, but without AES's scrutiny and CPU "
                   "instructions; prefer AES-GCM or ChaCha20-Poly1305",
                   "NIST SP 800-38C; RFC 6209; RFC 8998")
_MODE_MAC = Grade("acceptable", "sound only with a MAC over the ciphertext (encrypt-then-MAC)",
                  "NIST SP 800-38A; RFC 7366")
_XTS = Grade("acceptable", "for disk sectors only: no integrity, tweak per sector",
             "IEEE 1619; NIST SP 800-38E")
_ECB = Grade("broken", "equal plaintext blocks give equal ciphertext blocks: never for data",
             "NIST SP 800-38A")
_BLOCK128 = Grade("acceptable", "128-bit block cipher without known practical attack; "
                  "needs a MAC", "RFC 3713 (Camellia); NESSIE; AES finalists report")
_SM4 = Grade("acceptable", "128-bit block cipher (Chinese national standard); needs a MAC",
             "GB/T 32907-2016; RFC 8998")
_SEED = Grade("acceptable", "128-bit block cipher (Korean standard) without known practical "
              "attack; needs a MAC", "RFC 4269; KISA")
_ARIA = Grade("acceptable", "128-bit block cipher (Korean standard) without known practical "
              "attack; needs a MAC", "RFC 5794")
_RC2 = Grade("broken", "export-era cipher: related-key attacks and a 64-bit block; kept only "
             "to read old PKCS#12 files", "RFC 2268; Kelsey, Schneier, Wagner (ICICS 1997); RFC 8018")
_GOST89_ECB = Grade("broken", "GOST 28147-89 in ECB: equal blocks give equal ciphertext, a 64-bit "
                    "block (Sweet32), S-boxes left to the user, and single-key attacks below "
                    "brute force; superseded by Magma and Kuznyechik (GOST R 34.12-2015)",
                    "RFC 5830; Isobe (FSE 2011); RFC 8891")
_RC2_EXPORT = Grade("broken", "RC2 cut to 40 or 64 effective key bits, as export rules "
                    "wanted: a 40-bit key falls to exhaustive search in hours, 64 bits to a large "
                    "one; besides RC2's related-key attacks and 64-bit block",
                    "RFC 2268; Kelsey, Schneier, Wagner (ICICS 1997); RFC 8018")
_GOST89 = Grade("broken", "GOST 28147-89: a 64-bit block (Sweet32), S-boxes left to the user, and "
                "single-key attacks below brute force; superseded by Magma and Kuznyechik "
                "(GOST R 34.12-2015); these rows run SP 800-38A's modes, not RFC 5830's own",
                "RFC 5830; Isobe (FSE 2011); RFC 8891")
_GOST89_MESHED = Grade("broken", "GOST 28147-89 in its own CFB or counter mode, with CryptoPro key "
                       "meshing every 1 KiB (the pre-2018 GOST TLS suites): meshing limits what one key "
                       "encrypts, but the 64-bit block and single-key attacks below brute force stay; "
                       "superseded by Magma and Kuznyechik (GOST R 34.12-2015)",
                       "RFC 5830; RFC 4357; Isobe (FSE 2011); RFC 8891")
_MAGMA_ACPKM = Grade("legacy", "Magma (GOST 28147-89 with a fixed S-box) in CTR-ACPKM: re-keying every "
                     "1 KiB keeps each key's data far below the 64-bit block's birthday bound, but "
                     "the block stays 64 bits and single-key attacks below brute force stand; needs "
                     "a MAC", "RFC 8645; RFC 8891; RFC 9189; Isobe (FSE 2011)")
_KUZ_ACPKM = Grade("acceptable", "Kuznyechik (GOST R 34.12-2015, 128-bit block) in CTR-ACPKM, the "
                   "Russian national standard without known practical attack (its S-box has a "
                   "hidden structure, Perrin 2019); needs a MAC", "RFC 7801; RFC 8645; RFC 9189")
_CMAC_MAGMA = Grade("legacy", "OMAC (CMAC) over Magma: a 64-bit tag and block, so forgeries and "
                    "collisions come at the 64-bit block's bounds", "GOST R 34.13-2015; RFC 8891")
_CMAC_KUZ = Grade("acceptable", "OMAC (CMAC) over Kuznyechik, a 128-bit block cipher without "
                  "known practical attack", "GOST R 34.13-2015; RFC 7801")
_GOST_IMIT = Grade("broken", "GOST 28147-89's MAC: a 32-bit tag (a forgery try succeeds with "
                   "probability 2^-32) over a 64-bit block cipher", "RFC 5830; RFC 4357")
_3DES_2KEY = Grade("broken", "two-key triple DES: about 80 bits of security against known "
                   "attacks, disallowed for encryption since 2016; and a 64-bit block (Sweet32)",
                   "NIST SP 800-67 Rev. 2; NIST SP 800-131A Rev. 2; CVE-2016-2183")
_SWEET32 = Grade("legacy", "64-bit block: birthday collisions after ~32 GiB (Sweet32)",
                 "CVE-2016-2183; NIST SP 800-131A Rev. 2")
_DES = Grade("broken", "56-bit key: exhaustive search in hours", "NIST FIPS 46-3 withdrawn 2005")
_RC4_40 = Grade("broken", "RC4 with a 40-bit export key: exhaustive search in hours, besides RC4's "
                "keystream biases", "RFC 7465; RFC 6229")
_DESX = Grade("broken", "DESX: whitening lifts DES's 56-bit key against exhaustive search, not "
              "against a 64-bit block (Sweet32) or the slide attack with 2^32.5 known plaintexts",
              "Kilian, Rogaway (CRYPTO 1996); Biryukov, Wagner (EUROCRYPT 2000); CVE-2016-2183")
_MD5_SHA1 = Grade("legacy", "MD5 || SHA-1 (TLS 1.0/1.1 signatures): a collision needs both at once, "
                  "but that costs little more than SHA-1's (Joux's multicollisions) and SHA-1 "
                  "collisions are practical; TLS 1.2 and later do not use it",
                  "RFC 2246; RFC 8996; Joux (CRYPTO 2004)")
_RC4 = Grade("broken", "keystream biases recover plaintext; prohibited in TLS", "RFC 7465")
_STREAM = Grade("acceptable", "stream cipher without known attack; needs a MAC",
                "RFC 8439 (ChaCha20); eSTREAM portfolio (Salsa20)")
_MD5 = Grade("broken", "practical collisions (and chosen-prefix collisions)", "RFC 6151")
_SHA1 = Grade("legacy", "practical chosen-prefix collisions (SHAttered, 2017/2020)",
              "RFC 6194; NIST SP 800-131A Rev. 2")
_SHA2 = Grade("recommended", "SHA-2 family", "NIST FIPS 180-4")
_SHA3 = Grade("recommended", "SHA-3 family (Keccak)", "NIST FIPS 202")
_BLAKE2 = Grade("recommended", "fast hash with SHA-3-level security margin", "RFC 7693")
_RIPEMD = Grade("acceptable", "160-bit hash without practical collisions; small margin",
                "ISO/IEC 10118-3")
_SM3 = Grade("acceptable", "256-bit hash (Chinese national standard)",
             "GB/T 32905-2016; RFC 8998")
_HMAC_MD5 = Grade("legacy", "HMAC is not broken by MD5 collisions, but MD5 is not for new use",
                  "RFC 6151")
_HMAC_SHA1 = Grade("acceptable", "HMAC-SHA1 is unaffected by SHA-1 collisions; prefer SHA-2",
                   "RFC 6194; RFC 2104")
_HMAC_SHA2 = Grade("recommended", "HMAC with SHA-2", "RFC 2104; RFC 4231; FIPS 198-1")
_POLY = Grade("recommended", "one-time authenticator (key must never repeat)", "RFC 8439")
_CMAC = Grade("recommended", "block-cipher MAC", "NIST SP 800-38B; RFC 4493")
_GMAC = Grade("acceptable", "GCM's MAC; a repeated nonce leaks the authentication key",
              "NIST SP 800-38D")
_UMAC64 = Grade("acceptable", "fast universal-hash MAC; 64-bit tag", "RFC 4418")
_UMAC128 = Grade("recommended", "fast universal-hash MAC; 128-bit tag", "RFC 4418")
_UMAC96 = Grade("acceptable", "fast universal-hash MAC; 96-bit tag", "RFC 4418")
_WHIRLPOOL = Grade("legacy", "512-bit hash without practical attack, but little used or "
                   "analysed since; prefer SHA-2 or SHA-3", "ISO/IEC 10118-3; NESSIE")
_TIGER = Grade("legacy", "192-bit hash from 1996; attacks on reduced rounds, not for new use",
               "Anderson and Biham, Tiger (FSE 1996)")
_STREEBOG = Grade("acceptable", "256/512-bit hash (Russian national standard)",
                  "GOST R 34.11-2012; RFC 6986")
_GOST94 = Grade("legacy", "withdrawn Russian standard; a 2^105 collision attack (2008), "
                "superseded by Streebog", "GOST R 34.11-94; RFC 5831; RFC 4357")
_MD4 = Grade("broken", "collisions by hand; preimages far below brute force", "RFC 6150")
_CRC = Grade("broken", "a checksum, not a cryptographic hash: collisions and forgeries are "
             "trivial", "ITU-T V.42; RFC 4880 6.1")
_KW = Grade("acceptable", "key transport: wraps a key under a key-encryption key, "
            "deterministic, integrity from its 64-bit check value; not a bulk cipher (use an AEAD "
            "for data)", "RFC 3394; NIST SP 800-38F")
_KW_INV = Grade("acceptable", "key transport (KW or KWP) with AES's inverse cipher as the "
                "designated function, which SP 800-38F allows: as sound as the forward form, but "
                "few implementations read it; not a bulk cipher", "NIST SP 800-38F section 5.1; RFC 3394; RFC 5649")
_KWP = Grade("acceptable", "key transport for keys of any length (padded key wrap), "
             "deterministic, integrity from its 64-bit check value; not a bulk cipher (use an "
             "AEAD for data)", "RFC 5649; NIST SP 800-38F")
# HMAC over the other hashes: the grade follows the hash (HMAC needs no collision resistance)
_HMAC_SHA3 = Grade("recommended", "HMAC with SHA-3", "RFC 2104; FIPS 198-1; FIPS 202")
_HMAC_RIPEMD = Grade("acceptable", "HMAC with RIPEMD-160: no known attack, a small margin, "
                     "little used outside older protocols", "RFC 2286; RFC 2857")
_HMAC_SM3 = Grade("acceptable", "HMAC with SM3 (Chinese national standard)",
                  "GM/T 0042-2015; RFC 2104")
_HMAC_STREEBOG = Grade("acceptable", "HMAC with Streebog (Russian national standard)",
                       "RFC 7836; R 50.1.113-2016")
_HMAC_GOST94 = Grade("legacy", "HMAC with the withdrawn GOST R 34.11-94; superseded by "
                     "HMAC-Streebog", "RFC 4357; RFC 7836")
_HMAC_WHIRLPOOL = Grade("legacy", "HMAC with Whirlpool: no known attack, but little used or "
                        "analysed; prefer HMAC-SHA-2 or SHA-3", "RFC 2104; ISO/IEC 10118-3")
_HMAC_TIGER = Grade("legacy", "HMAC with Tiger, a 1996 hash not for new use",
                    "RFC 2104; Anderson and Biham (FSE 1996)")
_HMAC_MD4 = Grade("broken", "MD4's weakness carries over: HMAC-MD4 keys are recovered from "
                  "chosen messages", "RFC 6150; Fouque, Leurent, Nguyen (CRYPTO 2007)")
_HMAC_BLAKE2 = Grade("acceptable", "sound, but BLAKE2's own keyed mode does the same in one "
                     "pass over the data", "RFC 2104; RFC 7693")
_CMAC64 = Grade("legacy", "CMAC over a 64-bit block cipher: a 64-bit tag, and forgeries "
                   "after ~2^32 messages under one key", "NIST SP 800-38B; NIST SP 800-131A Rev. 2")
_CMAC_OTHER = Grade("acceptable", "CMAC over a 128-bit block cipher without known practical "
                    "attack; AES is the usual choice", "NIST SP 800-38B; RFC 4493")
_GMAC_OTHER = Grade("acceptable", "GCM's MAC over a 128-bit block cipher other than AES; a "
                    "repeated nonce leaks the authentication key", "NIST SP 800-38D")
_POLY_OTHER = Grade("acceptable", "Poly1305 with its pad from a 128-bit block cipher over a "
                    "per-message nonce, Poly1305-AES with another cipher", "Bernstein (FSE 2005)")
_POLY_AES = Grade("acceptable", "Poly1305 with its pad from AES over a per-message nonce, "
                  "superseded by Poly1305 in ChaCha20-Poly1305", "Bernstein (FSE 2005)")
_XCHACHA_AEAD = Grade("recommended", "ChaCha20-Poly1305 with a 24-byte nonce: nonces may be "
                      "random", "draft-irtf-cfrg-xchacha-03; RFC 8439")
_CHACHA_AEAD64 = Grade("acceptable", "the first ChaCha20-Poly1305: sound, but its 8-byte nonce is "
                       "too short to be random; superseded by RFC 8439's", "draft-agl-tls-"
                       "chacha20poly1305-04; RFC 8439")
_XSTREAM = Grade("acceptable", "stream cipher with a 24-byte nonce (nonces may be random) without "
                 "known attack; needs a MAC", "draft-irtf-cfrg-xchacha-03; Bernstein, Extending the "
                 "Salsa20 nonce (2011)")
_SECRETBOX = Grade("recommended", "NaCl's secretbox: XSalsa20 and Poly1305 with a 24-byte nonce "
                   "(nonces may be random); authenticated encryption without associated data",
                   "Bernstein, Cryptography in NaCl (2009); Bernstein, Extending the Salsa20 nonce "
                   "(2011)")
_SECRETBOX_XCHACHA = Grade("recommended", "libsodium's secretbox over XChaCha20 and Poly1305 with a "
                           "24-byte nonce (nonces may be random); authenticated encryption without "
                           "associated data", "libsodium crypto_secretbox_xchacha20poly1305; "
                           "draft-irtf-cfrg-xchacha-03")
_SALSA20R12 = Grade("acceptable", "Salsa20 with 12 rounds, eSTREAM's software pick: the best attacks "
                    "reach 8 rounds; needs a MAC", "eSTREAM portfolio (Salsa20/12); Bernstein, "
                    "The Salsa20 family of stream ciphers (2008)")
_SALSA20R8 = Grade("legacy", "Salsa20 cut to 8 rounds: key recovery faster than brute force is "
                   "known (academic, near 2^245), the margin is gone; libsodium deprecates it; "
                   "needs a MAC", "Aumasson, Fischer, Khazaei, Meier, Rechberger, New Features of "
                   "Latin Dances (FSE 2008); libsodium 1.0.18 crypto_stream_salsa208.h")
_SIPHASH = Grade("acceptable", "a keyed short-input PRF for hash tables and the like, not a general "
                 "MAC: its tag is 64 bits", "Aumasson and Bernstein, SipHash (INDOCRYPT 2012)")
_SIPHASH128 = Grade("acceptable", "a keyed short-input PRF for hash tables and the like; 128-bit "
                    "output", "Aumasson and Bernstein, SipHash (INDOCRYPT 2012)")
_HMAC_SHA512_T = Grade("recommended", "HMAC-SHA-512 cut to 256 bits (NaCl's crypto_auth)",
                       "RFC 2104 section 5; RFC 4231")
_BLAKE2_MAC = Grade("recommended", "BLAKE2's own keyed mode: a MAC in one pass over the data",
                    "RFC 7693")
_KMAC = Grade("recommended", "the SHA-3 family's MAC (cSHAKE keyed, the output length bound in)",
              "NIST SP 800-185")
_MD2 = Grade("broken", "preimage and collision attacks below brute force; moved to Historic",
             "RFC 6149; Knudsen, Mathiassen, Muller, Thomsen (2009)")
_GOST94_TEST = Grade("broken", "GOST R 34.11-94 with the test S-boxes of RFC 5831, which the "
                     "standard itself says are not for use; withdrawn, superseded by Streebog",
                     "RFC 5831; RFC 4357")
_HMAC_MD2 = Grade("broken", "HMAC with MD2, a hash moved to Historic", "RFC 6149; RFC 2104")
# the other block ciphers LibTomCrypt, Crypto++ and Botan offer
_XTEA = Grade("legacy", "XTEA: a 64-bit block (Sweet32), never standardized; no attack on all 64 "
              "rounds, but related-key attacks on over half of them", "Needham and Wheeler, Tea "
              "extensions (1997); CVE-2016-2183; Lu (ICISC 2009)")
_RC5 = Grade("broken", "RC5-32/12: a differential attack on all 12 rounds with 2^44 chosen "
             "plaintexts, and a 64-bit block (Sweet32)", "RFC 2040; Biryukov and Kushilevitz "
             "(EUROCRYPT 1998); CVE-2016-2183")
_RC6 = Grade("acceptable", "RC6: an AES finalist without known practical attack on its 20 rounds, "
             "but little used or analysed since and without CPU instructions; needs a MAC; "
             "prefer AES", "Rivest, Robshaw, Sidney, Yin, The RC6 Block Cipher (1998); AES "
             "finalists report (NIST 2000)")
_SKIPJACK = Grade("broken", "SKIPJACK: an 80-bit key, disallowed for encryption by NIST since "
                  "2011, and a 64-bit block (Sweet32); impossible-differential attacks on 31 of "
                  "its 32 rounds", "NIST SP 800-131A Rev. 2; Biham, Biryukov, Shamir (EUROCRYPT "
                  "1999)")
_KASUMI = Grade("legacy", "KASUMI: a 64-bit block (Sweet32) and a practical related-key attack "
                "on the full cipher (which 3GPP's f8/f9 keying avoids); superseded by SNOW 3G, AES "
                "and ZUC in mobile networks", "3GPP TS 35.202; Dunkelman, Keller, Shamir "
                "(CRYPTO 2010)")
_NOEKEON = Grade("legacy", "Noekeon in direct-key mode: not selected by NESSIE, its key schedule "
                 "has related-key weaknesses that this mode keeps (its designers meant it for "
                 "random keys only), and little analysis since", "Daemen, Peeters, Van Assche, "
                 "Rijmen, Nessie Proposal: NOEKEON (2000); NESSIE final report (2003)")
_NOEKEON_INDIRECT = Grade("legacy", "Noekeon in indirect-key mode: its designers' mode against "
                          "related-key attacks, but not selected by NESSIE and little analysed "
                          "since; no CPU instructions", "Daemen, Peeters, Van Assche, Rijmen, "
                          "Nessie Proposal: NOEKEON (2000); NESSIE final report (2003)")
_SAFER_K64 = Grade("broken", "SAFER K-64: a 64-bit key, within reach of exhaustive search, a "
                   "key schedule with related-key weaknesses (fixed in SAFER SK), and a 64-bit "
                   "block (Sweet32)", "Massey (FSE 1993); Knudsen (CRYPTO 1995); CVE-2016-2183")
_ANUBIS = Grade("legacy", "Anubis (tweaked): no known attack on its 12 rounds, but not selected by "
                "NESSIE, little analysed since, its S-box changed after submission, no CPU "
                "instructions; prefer AES", "Barreto and Rijmen, The Anubis Block Cipher (NESSIE "
                "submission, 2000, tweaked 2001); NESSIE final report (2003)")
_KHAZAD = Grade("legacy", "Khazad (tweaked): a 64-bit block (Sweet32), not selected by NESSIE, "
                "and an integral attack on 5 of its 8 rounds", "Barreto and Rijmen, The Khazad "
                "Legacy-Level Block Cipher (NESSIE submission, 2000, tweaked 2001); Muller, A New "
                "Attack against Khazad (ASIACRYPT 2003); CVE-2016-2183")
_SAFER_PLUS = Grade("legacy", "SAFER+: an AES candidate not taken past the first round, key-schedule "
                    "weaknesses reported for its longer keys, little analysed since, no CPU "
                    "instructions (still inside Bluetooth's legacy pairing functions E1, E21, "
                    "E22)", "Massey, Khachatrian, Kuregian, SAFER+ (AES submission, 1998); "
                    "Kelsey, Schneier, Wagner (second AES conference, 1999)")
# SAFER SK-64, K-128, SK-128 and CHC over AES-128 (LibTomCrypt's)
_SAFER_SK64 = Grade("broken", "SAFER SK-64: a 64-bit key, within reach of exhaustive search, and a "
                    "64-bit block (Sweet32); the strengthened key schedule fixed only the related-"
                    "key weakness", "Massey, strengthened key schedule for SAFER (1995); Knudsen "
                    "(CRYPTO 1995); CVE-2016-2183")
_SAFER_K128 = Grade("legacy", "SAFER K-128: the original key schedule with Knudsen's related-key "
                    "weakness, superseded by its designer's SK schedule, and a 64-bit block "
                    "(Sweet32)", "Massey, SAFER K-128 (1994); Knudsen (CRYPTO 1995); "
                    "CVE-2016-2183")
_SAFER_SK128 = Grade("legacy", "SAFER SK-128: no known practical attack on its 10 rounds, but a "
                     "64-bit block (Sweet32), never standardized beyond Singapore's use, and "
                     "little analysed since; prefer AES", "Massey, strengthened key schedule for "
                     "SAFER (1995); CVE-2016-2183")
_CHC = Grade("legacy", "Miyaguchi-Preneel over AES-128 (LibTomCrypt's cipher hash construction): "
             "a 128-bit digest (collisions at 2^64 work), AES re-keyed for every block, and no "
             "standard names this instantiation; a construction not to pick", "Menezes, van "
             "Oorschot, Vanstone, HAC Algorithm 9.43; Preneel, Govaerts, Vandewalle (CRYPTO "
             "1993); Black, Rogaway, Shrimpton (CRYPTO 2002)")
_HMAC_CHC = Grade("legacy", "HMAC over CHC-AES128, a 128-bit hash no standard names (a 16-byte "
                  "HMAC block); prefer HMAC-SHA-2 or CMAC-AES", "RFC 2104; HAC Algorithm 9.43")
_RIPEMD128 = Grade("legacy", "128-bit output: collisions at 2^64 work, and semi-free-start "
                   "collisions on the full function (2013)", "ISO/IEC 10118-3; Landelle and Peyrin "
                   "(EUROCRYPT 2013)")
_RIPEMD_WIDE = Grade("legacy", "a wider output of RIPEMD-128 or -160 without more security than "
                     "them, as its designers say; little used or analysed", "ISO/IEC 10118-3; "
                     "Dobbertin, Bosselaers, Preneel (the RIPEMD page)")
_HMAC_RIPEMD_OLD = Grade("legacy", "HMAC over a RIPEMD variant little used or analysed; prefer "
                         "HMAC-SHA-2", "RFC 2286; RFC 2104")
_SIV_OTHER = Grade("acceptable", "SIV over a 128-bit block cipher without known practical "
                   "attack: nonce-misuse-resistant, but without AES's scrutiny and CPU "
                   "instructions; prefer AES-SIV or AES-GCM-SIV", "RFC 5297")
_GCM_SIV_OTHER = Grade("acceptable", "GCM-SIV over a 128-bit block cipher without known "
                       "practical attack: nonce-misuse-resistant, but without AES's scrutiny "
                       "and CPU instructions; prefer AES-GCM-SIV", "RFC 8452")
_RC2_EAX = Grade("broken", "EAX over RC2: RC2's related-key attacks, a 64-bit block (Sweet32) "
                 "and tag; with 40 effective key bits also exhaustive search in hours",
                 "RFC 2268; Kelsey, Schneier, Wagner (ICICS 1997); CVE-2016-2183")
_KW_OTHER = Grade("acceptable", "key transport: RFC 3394's wrap (padded: RFC 5649's) over a "
                  "128-bit block cipher other than AES, deterministic, integrity from its 64-bit "
                  "check value; not a bulk cipher (use an AEAD for data), and outside SP 800-38F, "
                  "which names AES", "RFC 3394; RFC 5649; NIST SP 800-38F")
_GOST89_MESH = Grade("broken", "GOST 28147-89 with CryptoPro key meshing: a new key every KiB "
                     "does not lift the 64-bit block (Sweet32) nor the single-key attacks below "
                     "brute force; superseded by Magma and Kuznyechik (GOST R 34.12-2015)",
                     "RFC 4357 section 2.3; RFC 5830; Isobe (FSE 2011); RFC 8891")
_CMAC_BROKEN = Grade("broken", "CMAC over a broken 64-bit block cipher (RC2, GOST 28147-89): "
                     "a 64-bit tag, forgeries after ~2^32 messages, and the cipher's own "
                     "attacks", "NIST SP 800-38B; RFC 2268; RFC 5830")
_GOST89_IMIT = Grade("broken", "GOST 28147-89's MAC (imitovstavka): a 32-bit tag, 16 of the "
                     "cipher's 32 rounds, a 64-bit block; superseded by GOST R 34.13-2015's "
                     "MAC", "RFC 5830 section 8; RFC 4357")
_CRC_KRB = Grade("broken", "the CRC-32 of Kerberos 5's des-cbc-crc: a checksum, not a "
                 "cryptographic hash; collisions and forgeries are trivial", "RFC 3961 6.1.3; "
                 "RFC 6649")
_CMS_3DES_WRAP = Grade("legacy", "the CMS triple DES key wrap, for unwrapping old messages: "
                       "triple DES with its 64-bit block (Sweet32) and disallowed for encryption "
                       "by NIST after 2023, a 64-bit SHA-1 check over a random-IV CBC outside "
                       "SP 800-38F (whose TDEA wrap is TKW); RFC 3217 wraps triple DES keys only "
                       "(OpenSSL any whole 8-byte blocks), and CMS moved to AES key wrap; not a "
                       "bulk cipher", "RFC 3217; RFC 3565; NIST SP 800-131A Rev. 2; CVE-2016-2183")
_CSHAKE = Grade("recommended", "the SHA-3 family's customizable XOF (SHAKE with a function name "
                "and customization string, domain-separated from SHAKE)", "NIST SP 800-185; NIST FIPS 202")
_KECCAK_KMAC = Grade("acceptable", "the Keccak sponge under KMAC (Keccak[256] or Keccak[512] with "
                     "cSHAKE's domain bits), sound as a primitive: a building block of KMAC, "
                     "whose encoded key and strings the caller must put in front, not a hash to "
                     "pick; use SHA-3, SHAKE or KMAC", "NIST SP 800-185; NIST FIPS 202")
# the original Keccak hashes and SHA-256/192 (OpenSSL 3.2)
_KECCAK = Grade("acceptable", "Keccak as submitted to the SHA-3 competition, with its original "
                "padding: SHA-3's sponge and security margin, but not a standard, and its digests "
                "differ from SHA-3's; for Ethereum and other formats that name it, not a hash to "
                "pick for new designs: use SHA-3",
                "Bertoni, Daemen, Peeters, Van Assche: The Keccak reference, version 3.0 (2011); "
                "NIST FIPS 202")
_SHA256_192 = Grade("acceptable", "SHA-256 cut to 192 bits (96-bit collision resistance): the "
                    "hash of SP 800-208's LMS and XMSS parameter sets, which need no collision "
                    "resistance; not a general-purpose hash, use SHA-256",
                    "NIST SP 800-208; NIST FIPS 180-4")
_REF = Grade("reference", "the harness's own row: memory ceiling or per-call floor", "")

_ETM = ("-etm@openssh.com",)

_ENTRIES = [
    # name, kind, block, grade, names...
    Algorithm("aes-128-gcm", "aead", 16, _GCM, "aes-128-gcm", "AES-128-GCM",
              ("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
               "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"), ("aes128-gcm@openssh.com",)),
    Algorithm("aes-192-gcm", "aead", 16, _GCM, "aes-192-gcm"),
    Algorithm("aes-256-gcm", "aead", 16, _GCM, "aes-256-gcm", "AES-256-GCM",
              ("TLS_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
               "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"), ("aes256-gcm@openssh.com",)),
    Algorithm("chacha20-poly1305", "aead", 1, _CHACHA_AEAD, "chacha20-poly1305",
              "CHACHA20-POLY1305",
              ("TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
               "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
              ("chacha20-poly1305@openssh.com",)),
    Algorithm("aes-128-ocb", "aead", 16, _OCB, "aes-128-ocb", "", (), (), "OCB"),
    Algorithm("aes-192-ocb", "aead", 16, _OCB, "aes-192-ocb"),
    Algorithm("aes-256-ocb", "aead", 16, _OCB, "aes-256-ocb"),
    Algorithm("aes-128-ccm", "aead", 16, _CCM, "aes-128-ccm", "AES-128-CCM",
              ("TLS_AES_128_CCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CCM")),
    Algorithm("aes-192-ccm", "aead", 16, _CCM, "aes-192-ccm"),
    Algorithm("aes-128-ccm-8", "aead", 16, _CCM8, "", "AES-128-CCM-8",
              ("TLS_AES_128_CCM_8_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8")),
    Algorithm("aes-256-ccm-8", "aead", 16, _CCM8, "", "AES-256-CCM-8",
              ("TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8",)),
    Algorithm("aes-256-ccm", "aead", 16, _CCM, "aes-256-ccm", "AES-256-CCM",
              ("TLS_ECDHE_ECDSA_WITH_AES_256_CCM",)),
    Algorithm("aes-128-eax", "aead", 16, _EAX, "", "", (), (), "EAX"),
    Algorithm("aes-128-siv", "aead", 16, _SIV, "aes-128-siv", "AES-128-SIV"),
    Algorithm("aes-192-siv", "aead", 16, _SIV, "aes-192-siv"),
    Algorithm("aes-256-siv", "aead", 16, _SIV, "aes-256-siv", "AES-256-SIV"),
    Algorithm("aes-128-gcm-siv", "aead", 16, _GCM_SIV, "aes-128-gcm-siv"),
    Algorithm("aes-256-gcm-siv", "aead", 16, _GCM_SIV, "aes-256-gcm-siv"),
    Algorithm("aes-192-gcm-siv", "aead", 16, _GCM_SIV_192, "aes-192-gcm-siv"),   # OpenSSL 3.2
    # TLS 1.1/1.2 records of the CBC suites, MAC and CBC in one pass (OpenSSL's stitched ciphers)
    Algorithm("aes-128-cbc-hmac-sha1", "aead", 16, _TLS_CBC, "aes-128-cbc-hmac-sha1", "",
              ("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
               "TLS_RSA_WITH_AES_128_CBC_SHA")),
    Algorithm("aes-256-cbc-hmac-sha1", "aead", 16, _TLS_CBC, "aes-256-cbc-hmac-sha1", "",
              ("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
               "TLS_RSA_WITH_AES_256_CBC_SHA")),
    Algorithm("aes-128-cbc-hmac-sha256", "aead", 16, _TLS_CBC, "aes-128-cbc-hmac-sha256", "",
              ("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
               "TLS_RSA_WITH_AES_128_CBC_SHA256")),
    Algorithm("aes-256-cbc-hmac-sha256", "aead", 16, _TLS_CBC, "aes-256-cbc-hmac-sha256", "",
              ("TLS_DHE_RSA_WITH_AES_256_CBC_SHA256", "TLS_RSA_WITH_AES_256_CBC_SHA256")),
    # ChaCha20-Poly1305 with other nonces: XChaCha's 24 bytes, the original 8
    Algorithm("xchacha20-poly1305", "aead", 1, _XCHACHA_AEAD),
    Algorithm("chacha20-poly1305-nonce64", "aead", 1, _CHACHA_AEAD64),
    # GCM, CCM, EAX and OCB over the other 128-bit block ciphers, EAX at AES's other key sizes
    Algorithm("camellia-128-gcm", "aead", 16, _GCM_OTHER,
              "", "CAMELLIA-128-GCM", ("TLS_ECDHE_RSA_WITH_CAMELLIA_128_GCM_SHA256",)),
    Algorithm("camellia-192-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("camellia-256-gcm", "aead", 16, _GCM_OTHER,
              "", "CAMELLIA-256-GCM", ("TLS_ECDHE_RSA_WITH_CAMELLIA_256_GCM_SHA384",)),
    Algorithm("aria-128-gcm", "aead", 16, _GCM_OTHER,
              "aria-128-gcm", "", ("TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256",)),
    Algorithm("aria-192-gcm", "aead", 16, _GCM_OTHER,
              "aria-192-gcm", ""),
    Algorithm("aria-256-gcm", "aead", 16, _GCM_OTHER,
              "aria-256-gcm", "", ("TLS_ECDHE_RSA_WITH_ARIA_256_GCM_SHA384",)),
    Algorithm("sm4-gcm", "aead", 16, _GCM_OTHER,
              "", "", ("TLS_SM4_GCM_SM3",)),
    Algorithm("seed-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("twofish-128-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("twofish-256-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("serpent-128-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("serpent-192-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("serpent-256-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("camellia-128-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("camellia-192-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("camellia-256-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("aria-128-ccm", "aead", 16, _CCM_OTHER,
              "aria-128-ccm", ""),
    Algorithm("aria-192-ccm", "aead", 16, _CCM_OTHER,
              "aria-192-ccm", ""),
    Algorithm("aria-256-ccm", "aead", 16, _CCM_OTHER,
              "aria-256-ccm", ""),
    Algorithm("sm4-ccm", "aead", 16, _CCM_OTHER,
              "", "", ("TLS_SM4_CCM_SM3",)),
    Algorithm("seed-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("twofish-128-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("twofish-256-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("serpent-128-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("serpent-192-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("serpent-256-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("camellia-128-eax", "aead", 16, _EAX_OTHER),
    Algorithm("camellia-192-eax", "aead", 16, _EAX_OTHER),
    Algorithm("camellia-256-eax", "aead", 16, _EAX_OTHER),
    Algorithm("aria-128-eax", "aead", 16, _EAX_OTHER),
    Algorithm("aria-192-eax", "aead", 16, _EAX_OTHER),
    Algorithm("aria-256-eax", "aead", 16, _EAX_OTHER),
    Algorithm("sm4-eax", "aead", 16, _EAX_OTHER),
    Algorithm("seed-eax", "aead", 16, _EAX_OTHER),
    Algorithm("twofish-128-eax", "aead", 16, _EAX_OTHER),
    Algorithm("twofish-256-eax", "aead", 16, _EAX_OTHER),
    Algorithm("serpent-128-eax", "aead", 16, _EAX_OTHER),
    Algorithm("serpent-192-eax", "aead", 16, _EAX_OTHER),
    Algorithm("serpent-256-eax", "aead", 16, _EAX_OTHER),
    Algorithm("camellia-128-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("camellia-192-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("camellia-256-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("aria-128-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("aria-192-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("aria-256-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("sm4-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("seed-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("twofish-128-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("twofish-256-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("serpent-128-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("serpent-192-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("serpent-256-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("aes-192-eax", "aead", 16, _EAX),
    Algorithm("aes-256-eax", "aead", 16, _EAX),
    Algorithm("des-eax", "aead", 8, _DES),
    Algorithm("3des-eax", "aead", 8, _EAX64),
    Algorithm("blowfish-eax", "aead", 8, _EAX64),
    Algorithm("cast5-eax", "aead", 8, _EAX64),
    Algorithm("idea-eax", "aead", 8, _EAX64),
    Algorithm("gost28147-eax", "aead", 8, _GOST89),
    # GCM, CCM and OCB over RC6-128 and Noekeon (direct-key mode)
    Algorithm("rc6-128-gcm", "aead", 16, _GCM_OTHER),
    Algorithm("rc6-128-ccm", "aead", 16, _CCM_OTHER),
    Algorithm("rc6-128-ocb", "aead", 16, _OCB_OTHER),
    Algorithm("noekeon-direct-gcm", "aead", 16, _NOEKEON),
    Algorithm("noekeon-direct-ccm", "aead", 16, _NOEKEON),
    Algorithm("noekeon-direct-ocb", "aead", 16, _NOEKEON),
    # and over Anubis (tweaked), 128-bit key
    Algorithm("anubis-128-gcm", "aead", 16, _ANUBIS),
    Algorithm("anubis-128-ccm", "aead", 16, _ANUBIS),
    Algorithm("anubis-128-ocb", "aead", 16, _ANUBIS),
    Algorithm("safer-plus-128-gcm", "aead", 16, _SAFER_PLUS),
    Algorithm("safer-plus-128-ccm", "aead", 16, _SAFER_PLUS),
    Algorithm("safer-plus-128-ocb", "aead", 16, _SAFER_PLUS),
    Algorithm("noekeon-gcm", "aead", 16, _NOEKEON_INDIRECT),
    Algorithm("noekeon-ccm", "aead", 16, _NOEKEON_INDIRECT),
    Algorithm("noekeon-ocb", "aead", 16, _NOEKEON_INDIRECT),
    Algorithm("twofish-128-siv", "aead", 16, _SIV_OTHER),
    Algorithm("twofish-256-siv", "aead", 16, _SIV_OTHER),
    Algorithm("serpent-128-siv", "aead", 16, _SIV_OTHER),
    Algorithm("serpent-192-siv", "aead", 16, _SIV_OTHER),
    Algorithm("serpent-256-siv", "aead", 16, _SIV_OTHER),
    Algorithm("seed-siv", "aead", 16, _SIV_OTHER),
    Algorithm("camellia-128-siv", "aead", 16, _SIV_OTHER),
    Algorithm("camellia-192-siv", "aead", 16, _SIV_OTHER),
    Algorithm("camellia-256-siv", "aead", 16, _SIV_OTHER),
    Algorithm("sm4-siv", "aead", 16, _SIV_OTHER),
    Algorithm("twofish-128-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("twofish-256-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("serpent-128-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("serpent-256-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("seed-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("camellia-128-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("camellia-256-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("sm4-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    # SIV and GCM-SIV over ARIA (libgcrypt 1.11)
    Algorithm("aria-128-siv", "aead", 16, _SIV_OTHER),
    Algorithm("aria-192-siv", "aead", 16, _SIV_OTHER),
    Algorithm("aria-256-siv", "aead", 16, _SIV_OTHER),
    Algorithm("aria-128-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("aria-256-gcm-siv", "aead", 16, _GCM_SIV_OTHER),
    Algorithm("rc2-eax", "aead", 8, _RC2_EAX),
    Algorithm("rc2-40-eax", "aead", 8, _RC2_EAX),
    Algorithm("aes-128-cbc", "cipher", 16, _MODE_MAC, "aes-128-cbc", "AES-128-CBC",
              ("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"),
              ("aes128-cbc",), "", "aes-cbc-essiv:sha256"),
    Algorithm("aes-192-cbc", "cipher", 16, _MODE_MAC, "aes-192-cbc", "AES-192-CBC",
              (), ("aes192-cbc",)),
    Algorithm("aes-256-cbc", "cipher", 16, _MODE_MAC, "aes-256-cbc", "AES-256-CBC",
              ("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"),
              ("aes256-cbc",), "", "aes-cbc-essiv:sha256"),
    Algorithm("aes-128-ctr", "cipher", 1, _MODE_MAC, "aes-128-ctr", "",
              (), ("aes128-ctr",)),
    Algorithm("aes-192-ctr", "cipher", 1, _MODE_MAC, "aes-192-ctr", "",
              (), ("aes192-ctr",)),
    Algorithm("aes-256-ctr", "cipher", 1, _MODE_MAC, "aes-256-ctr", "",
              (), ("aes256-ctr",)),
    # GnuPG encrypts with its block ciphers in OpenPGP CFB mode.
    Algorithm("aes-128-cfb", "cipher", 1, _MODE_MAC, "aes-128-cfb", "", (), (), "AES"),
    Algorithm("aes-192-cfb", "cipher", 1, _MODE_MAC, "aes-192-cfb", "", (), (),
              "AES192"),
    Algorithm("aes-256-cfb", "cipher", 1, _MODE_MAC, "aes-256-cfb", "", (), (),
              "AES256"),
    Algorithm("aes-128-ecb", "cipher", 16, _ECB, "aes-128-ecb"),
    Algorithm("aes-192-ecb", "cipher", 16, _ECB, "aes-192-ecb"),
    Algorithm("aes-256-ecb", "cipher", 16, _ECB, "aes-256-ecb"),
    Algorithm("aes-128-xts", "cipher", 16, _XTS, "aes-128-xts", "AES-128-XTS",
              (), (), "", "aes-xts-plain64 --key-size 256"),
    Algorithm("aes-256-xts", "cipher", 16, _XTS, "aes-256-xts", "AES-256-XTS",
              (), (), "", "aes-xts-plain64 --key-size 512"),
    Algorithm("camellia-128-cbc", "cipher", 16, _BLOCK128, "camellia-128-cbc",
              "CAMELLIA-128-CBC", ("TLS_RSA_WITH_CAMELLIA_128_CBC_SHA",), (), "",
              "camellia-cbc-essiv:sha256"),
    Algorithm("camellia-256-cbc", "cipher", 16, _BLOCK128, "camellia-256-cbc",
              "CAMELLIA-256-CBC", ("TLS_RSA_WITH_CAMELLIA_256_CBC_SHA",), (), "",
              "camellia-cbc-essiv:sha256"),
    Algorithm("camellia-192-cbc", "cipher", 16, _BLOCK128, "camellia-192-cbc",
              "CAMELLIA-192-CBC"),
    Algorithm("camellia-192-ctr", "cipher", 1, _BLOCK128, "camellia-192-ctr"),
    Algorithm("camellia-128-ctr", "cipher", 1, _BLOCK128, "camellia-128-ctr"),
    Algorithm("camellia-256-ctr", "cipher", 1, _BLOCK128, "camellia-256-ctr"),
    Algorithm("twofish-256-cbc", "cipher", 16, _BLOCK128, "", "", (), (), "",
              "twofish-cbc-essiv:sha256"),
    Algorithm("serpent-256-cbc", "cipher", 16, _BLOCK128, "", "", (), (), "",
              "serpent-cbc-essiv:sha256"),
    Algorithm("blowfish-cbc", "cipher", 8, _SWEET32, "bf-cbc", "", (),
              ("blowfish-cbc",)),
    Algorithm("cast5-cbc", "cipher", 8, _SWEET32, "cast5-cbc", "", (),
              ("cast128-cbc",)),
    Algorithm("idea-cbc", "cipher", 8, _SWEET32, "idea-cbc", "",
              ("TLS_RSA_WITH_IDEA_CBC_SHA",)),
    Algorithm("3des-cbc", "cipher", 8, _SWEET32, "des-ede3-cbc", "3DES-CBC",
              ("TLS_RSA_WITH_3DES_EDE_CBC_SHA",), ("3des-cbc",),
              aliases=("des-ede3-cbc", "tripledes")),
    Algorithm("desx-cbc", "cipher", 8, _DESX, "desx-cbc"),
    Algorithm("rc4-40", "cipher", 1, _RC4_40, "rc4-40", "", ("TLS_RSA_EXPORT_WITH_RC4_40_MD5",)),
    Algorithm("des-cbc", "cipher", 8, _DES, "des-cbc", "DES-CBC",
              ("TLS_RSA_WITH_DES_CBC_SHA",)),
    Algorithm("sm4-cbc", "cipher", 16, _SM4, "sm4-cbc"),
    # Full-block CFB, as OpenPGP encrypts (RFC 4880 13.9): the ciphers of gpg --cipher-algo.
    Algorithm("twofish-256-cfb", "cipher", 1, _BLOCK128, "", "", (), (), "TWOFISH"),
    Algorithm("camellia-128-cfb", "cipher", 1, _BLOCK128, "camellia-128-cfb", "", (),
              (), "CAMELLIA128"),
    Algorithm("camellia-192-cfb", "cipher", 1, _BLOCK128, "camellia-192-cfb", "", (),
              (), "CAMELLIA192"),
    Algorithm("camellia-256-cfb", "cipher", 1, _BLOCK128, "camellia-256-cfb", "", (),
              (), "CAMELLIA256"),
    Algorithm("cast5-cfb", "cipher", 1, _SWEET32, "cast5-cfb", "", (), (), "CAST5"),
    Algorithm("blowfish-cfb", "cipher", 1, _SWEET32, "bf-cfb", "", (), (), "BLOWFISH"),
    Algorithm("3des-cfb", "cipher", 1, _SWEET32, "des-ede3-cfb", "", (), (), "3DES"),
    Algorithm("idea-cfb", "cipher", 1, _SWEET32, "idea-cfb", "", (), (), "IDEA"),
    Algorithm("rc4", "cipher", 1, _RC4, "rc4", "ARCFOUR-128",
              ("TLS_RSA_WITH_RC4_128_SHA", "TLS_RSA_WITH_RC4_128_MD5"),
              ("arcfour", "arcfour128", "arcfour256"), aliases=("arcfour",)),
    Algorithm("chacha20", "cipher", 1, _STREAM, "chacha20"),
    Algorithm("salsa20", "cipher", 1, _STREAM, "", "SALSA20-256"),
    Algorithm("salsa20r12", "cipher", 1, _STREAM),
    # ChaCha20 and Salsa20 with other nonces: 24 bytes (X), the original ChaCha20's 8
    Algorithm("xchacha20", "cipher", 1, _XSTREAM),
    Algorithm("xsalsa20", "cipher", 1, _XSTREAM),
    Algorithm("chacha20-nonce64", "cipher", 1, _STREAM),
    # NaCl's secretbox (AEADs without associated data), and Salsa20/12 and Salsa20/8 one message
    # a call (libsodium's crypto_stream_salsa2012_xor and _salsa208_xor restart at block 0)
    Algorithm("xsalsa20-poly1305", "aead", 1, _SECRETBOX, aliases=("secretbox",)),
    Algorithm("xchacha20-poly1305-secretbox", "aead", 1, _SECRETBOX_XCHACHA),
    Algorithm("salsa20r12-msg", "cipher", 1, _SALSA20R12),
    Algorithm("salsa20r8-msg", "cipher", 1, _SALSA20R8),
    Algorithm("camellia-128-ecb", "cipher", 16, _ECB, "camellia-128-ecb"),
    Algorithm("camellia-192-ecb", "cipher", 16, _ECB, "camellia-192-ecb"),
    Algorithm("camellia-256-ecb", "cipher", 16, _ECB, "camellia-256-ecb"),
    Algorithm("twofish-256-ecb", "cipher", 16, _ECB),
    Algorithm("serpent-256-ecb", "cipher", 16, _ECB),
    Algorithm("sm4-ecb", "cipher", 16, _ECB, "sm4-ecb"),
    Algorithm("blowfish-ecb", "cipher", 8, _ECB, "bf-ecb"),
    Algorithm("cast5-ecb", "cipher", 8, _ECB, "cast5-ecb"),
    Algorithm("idea-ecb", "cipher", 8, _ECB, "idea-ecb"),
    Algorithm("3des-ecb", "cipher", 8, _ECB, "des-ede3-ecb"),
    Algorithm("des-ecb", "cipher", 8, _ECB, "des-ecb"),
    Algorithm("aes-128-ofb", "cipher", 1, _MODE_MAC, "aes-128-ofb"),
    Algorithm("aes-192-ofb", "cipher", 1, _MODE_MAC, "aes-192-ofb"),
    Algorithm("aes-256-ofb", "cipher", 1, _MODE_MAC, "aes-256-ofb"),
    Algorithm("aes-128-cfb8", "cipher", 1, _MODE_MAC, "aes-128-cfb8"),
    Algorithm("aes-192-cfb8", "cipher", 1, _MODE_MAC, "aes-192-cfb8"),
    Algorithm("aes-256-cfb8", "cipher", 1, _MODE_MAC, "aes-256-cfb8"),
    Algorithm("3des-ofb", "cipher", 1, _SWEET32, "des-ede3-ofb"),
    Algorithm("3des-ctr", "cipher", 1, _SWEET32),
    Algorithm("blowfish-ofb", "cipher", 1, _SWEET32, "bf-ofb"),
    Algorithm("blowfish-ctr", "cipher", 1, _SWEET32),
    Algorithm("cast5-ofb", "cipher", 1, _SWEET32, "cast5-ofb"),
    Algorithm("cast5-ctr", "cipher", 1, _SWEET32),
    Algorithm("idea-ofb", "cipher", 1, _SWEET32, "idea-ofb"),
    Algorithm("idea-ctr", "cipher", 1, _SWEET32),
    Algorithm("twofish-128-ecb", "cipher", 16, _ECB),
    Algorithm("twofish-128-cbc", "cipher", 16, _BLOCK128),
    Algorithm("twofish-256-ctr", "cipher", 1, _BLOCK128),
    Algorithm("serpent-128-ecb", "cipher", 16, _ECB),
    Algorithm("serpent-128-cbc", "cipher", 16, _BLOCK128),
    Algorithm("serpent-192-cbc", "cipher", 16, _BLOCK128),
    Algorithm("serpent-256-ctr", "cipher", 1, _BLOCK128),
    Algorithm("rc2-ecb", "cipher", 8, _ECB, "rc2-ecb"),
    Algorithm("rc2-cbc", "cipher", 8, _RC2, "rc2-cbc"),
    Algorithm("seed-ecb", "cipher", 16, _ECB, "seed-ecb"),
    Algorithm("seed-cbc", "cipher", 16, _SEED, "seed-cbc"),
    Algorithm("aria-128-ecb", "cipher", 16, _ECB, "aria-128-ecb"),
    Algorithm("aria-192-ecb", "cipher", 16, _ECB, "aria-192-ecb"),
    Algorithm("aria-256-ecb", "cipher", 16, _ECB, "aria-256-ecb"),
    Algorithm("aria-128-cbc", "cipher", 16, _ARIA, "aria-128-cbc"),
    Algorithm("aria-192-cbc", "cipher", 16, _ARIA, "aria-192-cbc"),
    Algorithm("aria-256-cbc", "cipher", 16, _ARIA, "aria-256-cbc"),
    Algorithm("sm4-ctr", "cipher", 1, _SM4, "sm4-ctr"),
    Algorithm("sm4-ofb", "cipher", 1, _SM4, "sm4-ofb"),
    Algorithm("sm4-cfb", "cipher", 1, _SM4, "sm4-cfb"),
    Algorithm("gost28147-ecb", "cipher", 8, _GOST89_ECB, aliases=("gost89-ecb",)),
    # The block-cipher grid (core/algorithms.c): the ciphers above in the other modes a library
    # offers them in, XTS for the 128-bit ones, RC2 with 40 and 64 effective key bits.
    Algorithm("camellia-128-ofb", "cipher", 1, _BLOCK128, "camellia-128-ofb"),
    Algorithm("camellia-128-cfb8", "cipher", 1, _BLOCK128, "camellia-128-cfb8"),
    Algorithm("camellia-128-xts", "cipher", 16, _XTS),
    Algorithm("camellia-192-ofb", "cipher", 1, _BLOCK128, "camellia-192-ofb"),
    Algorithm("camellia-192-cfb8", "cipher", 1, _BLOCK128, "camellia-192-cfb8"),
    Algorithm("camellia-192-xts", "cipher", 16, _XTS),
    Algorithm("camellia-256-ofb", "cipher", 1, _BLOCK128, "camellia-256-ofb"),
    Algorithm("camellia-256-cfb8", "cipher", 1, _BLOCK128, "camellia-256-cfb8"),
    Algorithm("camellia-256-xts", "cipher", 16, _XTS),
    Algorithm("serpent-128-ctr", "cipher", 1, _BLOCK128),
    Algorithm("serpent-128-cfb", "cipher", 1, _BLOCK128),
    Algorithm("serpent-128-cfb8", "cipher", 1, _BLOCK128),
    Algorithm("serpent-128-ofb", "cipher", 1, _BLOCK128),
    Algorithm("serpent-128-xts", "cipher", 16, _XTS),
    Algorithm("serpent-192-ecb", "cipher", 16, _ECB),
    Algorithm("serpent-192-ctr", "cipher", 1, _BLOCK128),
    Algorithm("serpent-192-cfb", "cipher", 1, _BLOCK128),
    Algorithm("serpent-192-cfb8", "cipher", 1, _BLOCK128),
    Algorithm("serpent-192-ofb", "cipher", 1, _BLOCK128),
    Algorithm("serpent-192-xts", "cipher", 16, _XTS),
    Algorithm("serpent-256-cfb", "cipher", 1, _BLOCK128),
    Algorithm("serpent-256-cfb8", "cipher", 1, _BLOCK128),
    Algorithm("serpent-256-ofb", "cipher", 1, _BLOCK128),
    Algorithm("serpent-256-xts", "cipher", 16, _XTS),
    Algorithm("twofish-128-ctr", "cipher", 1, _BLOCK128),
    Algorithm("twofish-128-cfb", "cipher", 1, _BLOCK128),
    Algorithm("twofish-128-cfb8", "cipher", 1, _BLOCK128),
    Algorithm("twofish-128-ofb", "cipher", 1, _BLOCK128),
    Algorithm("twofish-128-xts", "cipher", 16, _XTS),
    Algorithm("twofish-192-ecb", "cipher", 16, _ECB),
    Algorithm("twofish-192-cbc", "cipher", 16, _BLOCK128),
    Algorithm("twofish-192-ctr", "cipher", 1, _BLOCK128),
    Algorithm("twofish-192-cfb", "cipher", 1, _BLOCK128),
    Algorithm("twofish-192-cfb8", "cipher", 1, _BLOCK128),
    Algorithm("twofish-192-ofb", "cipher", 1, _BLOCK128),
    Algorithm("twofish-192-xts", "cipher", 16, _XTS),
    Algorithm("twofish-256-cfb8", "cipher", 1, _BLOCK128),
    Algorithm("twofish-256-ofb", "cipher", 1, _BLOCK128),
    Algorithm("twofish-256-xts", "cipher", 16, _XTS),
    Algorithm("seed-cfb", "cipher", 1, _SEED, "seed-cfb"),
    Algorithm("seed-cfb8", "cipher", 1, _SEED),
    Algorithm("seed-ofb", "cipher", 1, _SEED, "seed-ofb"),
    Algorithm("seed-ctr", "cipher", 1, _SEED),
    Algorithm("seed-xts", "cipher", 16, _XTS),
    Algorithm("aria-128-cfb", "cipher", 1, _ARIA, "aria-128-cfb"),
    Algorithm("aria-128-cfb8", "cipher", 1, _ARIA, "aria-128-cfb8"),
    Algorithm("aria-128-ofb", "cipher", 1, _ARIA, "aria-128-ofb"),
    Algorithm("aria-128-ctr", "cipher", 1, _ARIA, "aria-128-ctr"),
    Algorithm("aria-128-xts", "cipher", 16, _XTS),
    Algorithm("aria-192-cfb", "cipher", 1, _ARIA, "aria-192-cfb"),
    Algorithm("aria-192-cfb8", "cipher", 1, _ARIA, "aria-192-cfb8"),
    Algorithm("aria-192-ofb", "cipher", 1, _ARIA, "aria-192-ofb"),
    Algorithm("aria-192-ctr", "cipher", 1, _ARIA, "aria-192-ctr"),
    Algorithm("aria-192-xts", "cipher", 16, _XTS),
    Algorithm("aria-256-cfb", "cipher", 1, _ARIA, "aria-256-cfb"),
    Algorithm("aria-256-cfb8", "cipher", 1, _ARIA, "aria-256-cfb8"),
    Algorithm("aria-256-ofb", "cipher", 1, _ARIA, "aria-256-ofb"),
    Algorithm("aria-256-ctr", "cipher", 1, _ARIA, "aria-256-ctr"),
    Algorithm("aria-256-xts", "cipher", 16, _XTS),
    Algorithm("sm4-cfb8", "cipher", 1, _SM4),
    Algorithm("sm4-xts", "cipher", 16, _XTS),
    Algorithm("aes-192-xts", "cipher", 16, _XTS),
    Algorithm("des-cfb", "cipher", 1, _DES, "des-cfb"),
    Algorithm("des-cfb8", "cipher", 1, _DES, "des-cfb8"),
    Algorithm("des-ofb", "cipher", 1, _DES, "des-ofb"),
    Algorithm("des-ctr", "cipher", 1, _DES),
    Algorithm("3des-cfb8", "cipher", 1, _SWEET32, "des-ede3-cfb8"),
    Algorithm("blowfish-cfb8", "cipher", 1, _SWEET32),
    Algorithm("cast5-cfb8", "cipher", 1, _SWEET32),
    Algorithm("idea-cfb8", "cipher", 1, _SWEET32),
    Algorithm("rc2-cfb", "cipher", 1, _RC2, "rc2-cfb"),
    Algorithm("rc2-cfb8", "cipher", 1, _RC2),
    Algorithm("rc2-ofb", "cipher", 1, _RC2, "rc2-ofb"),
    Algorithm("rc2-ctr", "cipher", 1, _RC2),
    Algorithm("rc2-40-ecb", "cipher", 8, _ECB),
    Algorithm("rc2-40-cbc", "cipher", 8, _RC2_EXPORT, "rc2-40-cbc"),
    Algorithm("rc2-40-cfb", "cipher", 1, _RC2_EXPORT),
    Algorithm("rc2-40-cfb8", "cipher", 1, _RC2_EXPORT),
    Algorithm("rc2-40-ofb", "cipher", 1, _RC2_EXPORT),
    Algorithm("rc2-40-ctr", "cipher", 1, _RC2_EXPORT),
    Algorithm("rc2-64-ecb", "cipher", 8, _ECB),
    Algorithm("rc2-64-cbc", "cipher", 8, _RC2_EXPORT, "rc2-64-cbc"),
    Algorithm("rc2-64-cfb", "cipher", 1, _RC2_EXPORT),
    Algorithm("rc2-64-cfb8", "cipher", 1, _RC2_EXPORT),
    Algorithm("rc2-64-ofb", "cipher", 1, _RC2_EXPORT),
    Algorithm("rc2-64-ctr", "cipher", 1, _RC2_EXPORT),
    # RC2 with 1024 effective key bits (Nettle's arctwo_gutmann128): RC2's weaknesses all the same
    Algorithm("rc2-gutmann-ecb", "cipher", 8, _ECB),
    Algorithm("rc2-gutmann-cbc", "cipher", 8, _RC2),
    Algorithm("rc2-gutmann-ctr", "cipher", 1, _RC2),
    Algorithm("rc2-gutmann-cfb", "cipher", 1, _RC2),
    Algorithm("rc2-gutmann-cfb8", "cipher", 1, _RC2),
    Algorithm("gost28147-cbc", "cipher", 8, _GOST89),
    Algorithm("gost28147-cfb", "cipher", 1, _GOST89),
    Algorithm("gost28147-cfb8", "cipher", 1, _GOST89),
    Algorithm("gost28147-ofb", "cipher", 1, _GOST89),
    Algorithm("gost28147-ctr", "cipher", 1, _GOST89),
    # more block ciphers at their standard key sizes: XTEA, RC5-32/12/16, RC6-128, SKIPJACK,
    # KASUMI, Noekeon in direct-key mode (LibTomCrypt's) and indirect-key mode (Botan's)
    Algorithm("xtea-ecb", "cipher", 8, _ECB),
    Algorithm("xtea-cbc", "cipher", 8, _XTEA),
    Algorithm("xtea-cfb", "cipher", 1, _XTEA),
    Algorithm("xtea-ofb", "cipher", 1, _XTEA),
    Algorithm("xtea-ctr", "cipher", 1, _XTEA),
    Algorithm("rc5-ecb", "cipher", 8, _ECB),
    Algorithm("rc5-cbc", "cipher", 8, _RC5),
    Algorithm("rc5-cfb", "cipher", 1, _RC5),
    Algorithm("rc5-ofb", "cipher", 1, _RC5),
    Algorithm("rc5-ctr", "cipher", 1, _RC5),
    Algorithm("rc6-128-ecb", "cipher", 16, _ECB),
    Algorithm("rc6-128-cbc", "cipher", 16, _RC6),
    Algorithm("rc6-128-cfb", "cipher", 1, _RC6),
    Algorithm("rc6-128-ofb", "cipher", 1, _RC6),
    Algorithm("rc6-128-ctr", "cipher", 1, _RC6),
    Algorithm("rc6-128-xts", "cipher", 16, _XTS),
    Algorithm("skipjack-ecb", "cipher", 8, _ECB),
    Algorithm("skipjack-cbc", "cipher", 8, _SKIPJACK),
    Algorithm("skipjack-cfb", "cipher", 1, _SKIPJACK),
    Algorithm("skipjack-ofb", "cipher", 1, _SKIPJACK),
    Algorithm("skipjack-ctr", "cipher", 1, _SKIPJACK),
    Algorithm("kasumi-ecb", "cipher", 8, _ECB),
    Algorithm("kasumi-cbc", "cipher", 8, _KASUMI),
    Algorithm("kasumi-cfb", "cipher", 1, _KASUMI),
    Algorithm("kasumi-ofb", "cipher", 1, _KASUMI),
    Algorithm("kasumi-ctr", "cipher", 1, _KASUMI),
    Algorithm("noekeon-direct-ecb", "cipher", 16, _ECB),
    Algorithm("noekeon-direct-cbc", "cipher", 16, _NOEKEON),
    Algorithm("noekeon-direct-cfb", "cipher", 1, _NOEKEON),
    Algorithm("noekeon-direct-ofb", "cipher", 1, _NOEKEON),
    Algorithm("noekeon-direct-ctr", "cipher", 1, _NOEKEON),
    Algorithm("noekeon-direct-xts", "cipher", 16, _NOEKEON),
    Algorithm("noekeon-ecb", "cipher", 16, _ECB),
    Algorithm("noekeon-cbc", "cipher", 16, _NOEKEON_INDIRECT),
    Algorithm("noekeon-cfb", "cipher", 1, _NOEKEON_INDIRECT),
    Algorithm("noekeon-ofb", "cipher", 1, _NOEKEON_INDIRECT),
    Algorithm("noekeon-ctr", "cipher", 1, _NOEKEON_INDIRECT),
    Algorithm("noekeon-xts", "cipher", 16, _NOEKEON_INDIRECT),
    Algorithm("safer-k64-ecb", "cipher", 8, _ECB),
    Algorithm("safer-k64-cbc", "cipher", 8, _SAFER_K64),
    Algorithm("safer-k64-cfb", "cipher", 1, _SAFER_K64),
    Algorithm("safer-k64-ofb", "cipher", 1, _SAFER_K64),
    Algorithm("safer-k64-ctr", "cipher", 1, _SAFER_K64),
    Algorithm("gost28147-tc26z-cfb", "cipher", 8, _GOST89_MESHED, "", "GOST28147-TC26Z-CFB"),
    Algorithm("gost28147-cpa-cfb", "cipher", 8, _GOST89_MESHED, "", "GOST28147-CPA-CFB"),
    Algorithm("gost28147-cpb-cfb", "cipher", 8, _GOST89_MESHED, "", "GOST28147-CPB-CFB"),
    Algorithm("gost28147-cpc-cfb", "cipher", 8, _GOST89_MESHED, "", "GOST28147-CPC-CFB"),
    Algorithm("gost28147-cpd-cfb", "cipher", 8, _GOST89_MESHED, "", "GOST28147-CPD-CFB"),
    Algorithm("gost28147-tc26z-cnt", "cipher", 8, _GOST89_MESHED, "", "GOST28147-TC26Z-CNT",
              ("TLS_GOSTR341112_256_WITH_28147_CNT_IMIT",)),
    Algorithm("magma-ctr-acpkm", "cipher", 8, _MAGMA_ACPKM, "", "MAGMA-CTR-ACPKM",
              ("TLS_GOSTR341112_256_WITH_MAGMA_CTR_OMAC",)),
    Algorithm("kuznyechik-ctr-acpkm", "cipher", 16, _KUZ_ACPKM, "", "KUZNYECHIK-CTR-ACPKM",
              ("TLS_GOSTR341112_256_WITH_KUZNYECHIK_CTR_OMAC",)),
    Algorithm("gost28147-mesh-cfb", "cipher", 1, _GOST89_MESH),
    Algorithm("gost28147-mesh-cfb8", "cipher", 1, _GOST89_MESH),
    Algorithm("gost28147-mesh-ofb", "cipher", 1, _GOST89_MESH),
    Algorithm("gost28147-mesh-ctr", "cipher", 1, _GOST89_MESH),
    # Anubis (tweaked) with a 128-bit key and Khazad (tweaked), LibTomCrypt's
    Algorithm("anubis-128-ecb", "cipher", 16, _ECB),
    Algorithm("anubis-128-cbc", "cipher", 16, _ANUBIS),
    Algorithm("anubis-128-cfb", "cipher", 1, _ANUBIS),
    Algorithm("anubis-128-ofb", "cipher", 1, _ANUBIS),
    Algorithm("anubis-128-ctr", "cipher", 1, _ANUBIS),
    Algorithm("anubis-128-xts", "cipher", 16, _ANUBIS),
    Algorithm("khazad-ecb", "cipher", 8, _ECB),
    Algorithm("khazad-cbc", "cipher", 8, _KHAZAD),
    Algorithm("khazad-cfb", "cipher", 1, _KHAZAD),
    Algorithm("khazad-ofb", "cipher", 1, _KHAZAD),
    Algorithm("khazad-ctr", "cipher", 1, _KHAZAD),
    # SAFER+ with a 128-bit key, LibTomCrypt's
    Algorithm("safer-plus-128-ecb", "cipher", 16, _ECB),
    Algorithm("safer-plus-128-cbc", "cipher", 16, _SAFER_PLUS),
    Algorithm("safer-plus-128-cfb", "cipher", 1, _SAFER_PLUS),
    Algorithm("safer-plus-128-ofb", "cipher", 1, _SAFER_PLUS),
    Algorithm("safer-plus-128-ctr", "cipher", 1, _SAFER_PLUS),
    Algorithm("safer-plus-128-xts", "cipher", 16, _SAFER_PLUS),
    # SAFER SK-64 (8 rounds), K-128 and SK-128 (10), LibTomCrypt's; SK-64 at 6 and K-128 at 12
    # rounds, the counts their published known answers are for
    Algorithm("safer-sk64-ecb", "cipher", 8, _ECB),
    Algorithm("safer-sk64-cbc", "cipher", 8, _SAFER_SK64),
    Algorithm("safer-sk64-cfb", "cipher", 1, _SAFER_SK64),
    Algorithm("safer-sk64-ofb", "cipher", 1, _SAFER_SK64),
    Algorithm("safer-sk64-ctr", "cipher", 1, _SAFER_SK64),
    Algorithm("safer-k128-ecb", "cipher", 8, _ECB),
    Algorithm("safer-k128-cbc", "cipher", 8, _SAFER_K128),
    Algorithm("safer-k128-cfb", "cipher", 1, _SAFER_K128),
    Algorithm("safer-k128-ofb", "cipher", 1, _SAFER_K128),
    Algorithm("safer-k128-ctr", "cipher", 1, _SAFER_K128),
    Algorithm("safer-sk128-ecb", "cipher", 8, _ECB),
    Algorithm("safer-sk128-cbc", "cipher", 8, _SAFER_SK128),
    Algorithm("safer-sk128-cfb", "cipher", 1, _SAFER_SK128),
    Algorithm("safer-sk128-ofb", "cipher", 1, _SAFER_SK128),
    Algorithm("safer-sk128-ctr", "cipher", 1, _SAFER_SK128),
    Algorithm("safer-sk64-r6-ecb", "cipher", 8, _ECB),
    Algorithm("safer-k128-r12-ecb", "cipher", 8, _ECB),
    # Miyaguchi-Preneel over AES-128 (LibTomCrypt's chc_hash bound to AES), and HMAC over it
    Algorithm("chc-aes128", "hash", 16, _CHC),
    Algorithm("hmac-chc-aes128", "mac", 16, _HMAC_CHC),
    # CFB1: one bit of feedback per step (OpenSSL's)
    Algorithm("aes-128-cfb1", "cipher", 1, _MODE_MAC, "aes-128-cfb1"),
    Algorithm("aes-192-cfb1", "cipher", 1, _MODE_MAC, "aes-192-cfb1"),
    Algorithm("aes-256-cfb1", "cipher", 1, _MODE_MAC, "aes-256-cfb1"),
    Algorithm("camellia-128-cfb1", "cipher", 1, _BLOCK128, "camellia-128-cfb1"),
    Algorithm("camellia-192-cfb1", "cipher", 1, _BLOCK128, "camellia-192-cfb1"),
    Algorithm("camellia-256-cfb1", "cipher", 1, _BLOCK128, "camellia-256-cfb1"),
    Algorithm("aria-128-cfb1", "cipher", 1, _ARIA, "aria-128-cfb1"),
    Algorithm("aria-192-cfb1", "cipher", 1, _ARIA, "aria-192-cfb1"),
    Algorithm("aria-256-cfb1", "cipher", 1, _ARIA, "aria-256-cfb1"),
    Algorithm("des-cfb1", "cipher", 1, _DES, "des-cfb1"),
    Algorithm("3des-cfb1", "cipher", 1, _SWEET32, "des-ede3-cfb1"),
    # two-key triple DES
    Algorithm("3des-2key-ecb", "cipher", 8, _ECB, "des-ede-ecb"),
    Algorithm("3des-2key-cbc", "cipher", 8, _3DES_2KEY, "des-ede-cbc"),
    Algorithm("3des-2key-cfb", "cipher", 1, _3DES_2KEY, "des-ede-cfb"),
    Algorithm("3des-2key-ofb", "cipher", 1, _3DES_2KEY, "des-ede-ofb"),
    # CBC with ciphertext stealing (RFC 3962, NIST's CS3)
    Algorithm("aes-128-cbc-cts", "cipher", 16, _MODE_MAC),
    Algorithm("aes-192-cbc-cts", "cipher", 16, _MODE_MAC),
    Algorithm("aes-256-cbc-cts", "cipher", 16, _MODE_MAC),
    Algorithm("camellia-128-cbc-cts", "cipher", 16, _BLOCK128),
    Algorithm("camellia-192-cbc-cts", "cipher", 16, _BLOCK128),
    Algorithm("camellia-256-cbc-cts", "cipher", 16, _BLOCK128),
    Algorithm("md5", "hash", 64, _MD5, "md5", "MD5", (), (), "MD5"),
    Algorithm("sha1", "hash", 64, _SHA1, "sha1", "SHA1", (), (), "SHA1"),
    Algorithm("md5-sha1", "hash", 64, _MD5_SHA1, "md5-sha1"),
    Algorithm("sha224", "hash", 64, _SHA2, "sha224", "SHA224", (), (), "SHA224"),
    Algorithm("sha256", "hash", 64, _SHA2, "sha256", "SHA256", (), (), "SHA256"),
    Algorithm("sha384", "hash", 128, _SHA2, "sha384", "SHA384", (), (), "SHA384"),
    Algorithm("sha512", "hash", 128, _SHA2, "sha512", "SHA512", (), (), "SHA512"),
    Algorithm("sha512-256", "hash", 128, _SHA2, "sha512-256"),
    Algorithm("sha512-224", "hash", 128, _SHA2, "sha512-224"),
    Algorithm("sha3-256", "hash", 136, _SHA3, "sha3-256", "SHA3-256"),
    Algorithm("sha3-512", "hash", 72, _SHA3, "sha3-512", "SHA3-512"),
    Algorithm("shake128", "hash", 168, _SHA3, "shake128", "SHAKE-128"),
    Algorithm("blake2b-512", "hash", 128, _BLAKE2, "blake2b512"),
    Algorithm("blake2s-256", "hash", 64, _BLAKE2, "blake2s256"),
    Algorithm("ripemd160", "hash", 64, _RIPEMD, "ripemd160", "RMD160", (), (),
              "RIPEMD160"),
    Algorithm("sm3", "hash", 64, _SM3, "sm3"),
    Algorithm("sha3-224", "hash", 144, _SHA3, "sha3-224", "SHA3-224"),
    Algorithm("sha3-384", "hash", 104, _SHA3, "sha3-384", "SHA3-384"),
    Algorithm("shake256", "hash", 136, _SHA3, "shake256", "SHAKE-256"),
    Algorithm("keccak-kmac-128", "hash", 168, _KECCAK_KMAC, "keccak-kmac-128"),
    Algorithm("keccak-kmac-256", "hash", 136, _KECCAK_KMAC, "keccak-kmac-256"),
    # cSHAKE (libgcrypt 1.11), customized as SP 800-185's samples (core/algorithms.c)
    Algorithm("cshake128", "hash", 168, _CSHAKE),
    Algorithm("cshake256", "hash", 136, _CSHAKE),
    # the original Keccak (block: the rate) and SHA-256/192, OpenSSL 3.2's
    Algorithm("keccak-224", "hash", 144, _KECCAK, "keccak-224"),
    Algorithm("keccak-256", "hash", 136, _KECCAK, "keccak-256"),
    Algorithm("keccak-384", "hash", 104, _KECCAK, "keccak-384"),
    Algorithm("keccak-512", "hash", 72, _KECCAK, "keccak-512"),
    Algorithm("sha256-192", "hash", 64, _SHA256_192, "sha256-192", aliases=("sha2-256/192",)),
    Algorithm("blake2b-160", "hash", 128, _BLAKE2),
    Algorithm("blake2b-256", "hash", 128, _BLAKE2),
    Algorithm("blake2b-384", "hash", 128, _BLAKE2),
    Algorithm("blake2s-128", "hash", 64, _BLAKE2),
    Algorithm("blake2s-160", "hash", 64, _BLAKE2),
    Algorithm("blake2s-224", "hash", 64, _BLAKE2),
    Algorithm("md4", "hash", 64, _MD4, "md4"),
    Algorithm("whirlpool", "hash", 64, _WHIRLPOOL, "whirlpool"),
    Algorithm("tiger", "hash", 64, _TIGER),
    Algorithm("streebog-256", "hash", 64, _STREEBOG, "", "STREEBOG-256",
              aliases=("stribog256",)),
    Algorithm("streebog-512", "hash", 64, _STREEBOG, "", "STREEBOG-512",
              aliases=("stribog512",)),
    Algorithm("gostr3411-94", "hash", 32, _GOST94, "", "GOSTR341194",
              aliases=("gost94",)),
    Algorithm("crc32", "hash", 1, _CRC),
    Algorithm("crc24", "hash", 1, _CRC),
    Algorithm("md2", "hash", 16, _MD2, "md2"),
    Algorithm("gostr3411-94-test", "hash", 32, _GOST94_TEST),
    Algorithm("tiger2", "hash", 64, _TIGER),
    Algorithm("tiger-be", "hash", 64, _TIGER),
    Algorithm("crc32-rfc1510", "hash", 1, _CRC_KRB),
    Algorithm("ripemd128", "hash", 64, _RIPEMD128, aliases=("rmd128",)),
    Algorithm("ripemd256", "hash", 64, _RIPEMD_WIDE, aliases=("rmd256",)),
    Algorithm("ripemd320", "hash", 64, _RIPEMD_WIDE, aliases=("rmd320",)),
    Algorithm("hmac-md5", "mac", 64, _HMAC_MD5, "hmac-md5", "MD5", (),
              ("hmac-md5", "hmac-md5" + _ETM[0])),
    Algorithm("hmac-sha1", "mac", 64, _HMAC_SHA1, "hmac-sha1", "SHA1", (),
              ("hmac-sha1", "hmac-sha1" + _ETM[0])),
    Algorithm("hmac-sha256", "mac", 64, _HMAC_SHA2, "hmac-sha256", "SHA256", (),
              ("hmac-sha2-256", "hmac-sha2-256" + _ETM[0])),
    Algorithm("hmac-sha512", "mac", 128, _HMAC_SHA2, "hmac-sha512", "SHA512", (),
              ("hmac-sha2-512", "hmac-sha2-512" + _ETM[0])),
    Algorithm("hmac-sha224", "mac", 64, _HMAC_SHA2, "hmac-sha224", "SHA224"),
    Algorithm("hmac-sha384", "mac", 128, _HMAC_SHA2, "hmac-sha384", "SHA384"),
    Algorithm("cmac-aes-256", "mac", 16, _CMAC, "cmac-aes-256-cbc", "AES-CMAC-256"),
    Algorithm("poly1305", "mac", 16, _POLY, "poly1305"),
    Algorithm("cmac-aes-128", "mac", 16, _CMAC, "cmac-aes-128-cbc", "AES-CMAC-128"),
    Algorithm("gmac-aes-128", "mac", 16, _GMAC, "gmac-aes-128-gcm", "AES-GMAC-128"),
    Algorithm("umac-64", "mac", 1, _UMAC64, "", "", (),
              ("umac-64@openssh.com", "umac-64" + _ETM[0])),
    Algorithm("umac-128", "mac", 1, _UMAC128, "", "UMAC-128", (),
              ("umac-128@openssh.com", "umac-128" + _ETM[0])),
    Algorithm("umac-96", "mac", 1, _UMAC96, "", "UMAC-96"),
    Algorithm("gost28147-tc26z-imit", "mac", 8, _GOST_IMIT, "", "GOST28147-TC26Z-IMIT"),
    Algorithm("cmac-magma", "mac", 8, _CMAC_MAGMA, "", "OMAC-MAGMA"),
    Algorithm("cmac-kuznyechik", "mac", 16, _CMAC_KUZ, "", "OMAC-KUZNYECHIK"),
    # HMAC over the other hashes (the hash's block for `block`)
    Algorithm("hmac-sha512-224", "mac", 128, _HMAC_SHA2),
    Algorithm("hmac-sha512-256", "mac", 128, _HMAC_SHA2),
    Algorithm("hmac-sha3-224", "mac", 144, _HMAC_SHA3),
    Algorithm("hmac-sha3-256", "mac", 136, _HMAC_SHA3),
    Algorithm("hmac-sha3-384", "mac", 104, _HMAC_SHA3),
    Algorithm("hmac-sha3-512", "mac", 72, _HMAC_SHA3),
    Algorithm("hmac-ripemd160", "mac", 64, _HMAC_RIPEMD),
    Algorithm("hmac-sm3", "mac", 64, _HMAC_SM3),
    Algorithm("hmac-streebog-256", "mac", 64, _HMAC_STREEBOG, "", "STREEBOG-256"),
    Algorithm("hmac-streebog-512", "mac", 64, _HMAC_STREEBOG, "", "STREEBOG-512"),
    Algorithm("hmac-gostr3411-94", "mac", 32, _HMAC_GOST94, "", "GOSTR341194"),
    Algorithm("hmac-whirlpool", "mac", 64, _HMAC_WHIRLPOOL),
    Algorithm("hmac-tiger", "mac", 64, _HMAC_TIGER),
    Algorithm("hmac-md4", "mac", 64, _HMAC_MD4),
    Algorithm("hmac-blake2b-160", "mac", 128, _HMAC_BLAKE2),
    Algorithm("hmac-blake2b-256", "mac", 128, _HMAC_BLAKE2),
    Algorithm("hmac-blake2b-384", "mac", 128, _HMAC_BLAKE2),
    Algorithm("hmac-blake2b-512", "mac", 128, _HMAC_BLAKE2),
    Algorithm("hmac-blake2s-128", "mac", 64, _HMAC_BLAKE2),
    Algorithm("hmac-blake2s-160", "mac", 64, _HMAC_BLAKE2),
    Algorithm("hmac-blake2s-224", "mac", 64, _HMAC_BLAKE2),
    Algorithm("hmac-blake2s-256", "mac", 64, _HMAC_BLAKE2),
    Algorithm("hmac-md2", "mac", 16, _HMAC_MD2),
    Algorithm("hmac-gostr3411-94-test", "mac", 32, _GOST94_TEST),
    Algorithm("hmac-ripemd128", "mac", 64, _HMAC_RIPEMD_OLD),
    Algorithm("hmac-ripemd256", "mac", 64, _HMAC_RIPEMD_OLD),
    Algorithm("hmac-ripemd320", "mac", 64, _HMAC_RIPEMD_OLD),
    # block-cipher MACs over other ciphers and key sizes
    Algorithm("cmac-aes-192", "mac", 16, _CMAC, "cmac-aes-192-cbc"),
    Algorithm("cmac-3des", "mac", 8, _CMAC64, "cmac-des-ede3-cbc"),
    Algorithm("cmac-camellia-128", "mac", 16, _CMAC_OTHER, "cmac-camellia-128-cbc"),
    Algorithm("cmac-camellia-192", "mac", 16, _CMAC_OTHER, "cmac-camellia-192-cbc"),
    Algorithm("cmac-camellia-256", "mac", 16, _CMAC_OTHER, "cmac-camellia-256-cbc"),
    Algorithm("cmac-sm4", "mac", 16, _CMAC_OTHER, "cmac-sm4-cbc"),
    Algorithm("gmac-aes-192", "mac", 16, _GMAC, "gmac-aes-192-gcm", "AES-GMAC-192"),
    Algorithm("gmac-aes-256", "mac", 16, _GMAC, "gmac-aes-256-gcm", "AES-GMAC-256"),
    Algorithm("poly1305-aes", "mac", 16, _POLY_AES),
    Algorithm("cmac-cast5", "mac", 8, _CMAC64, "cmac-cast5-cbc"),
    Algorithm("cmac-blowfish", "mac", 8, _CMAC64, "cmac-bf-cbc"),
    Algorithm("cmac-idea", "mac", 8, _CMAC64, "cmac-idea-cbc"),
    Algorithm("cmac-seed", "mac", 16, _CMAC_OTHER, "cmac-seed-cbc"),
    Algorithm("cmac-twofish-256", "mac", 16, _CMAC_OTHER),
    Algorithm("cmac-serpent-256", "mac", 16, _CMAC_OTHER),
    Algorithm("gmac-camellia-128", "mac", 16, _GMAC_OTHER),
    Algorithm("gmac-seed", "mac", 16, _GMAC_OTHER),
    Algorithm("gmac-twofish-256", "mac", 16, _GMAC_OTHER),
    Algorithm("gmac-serpent-256", "mac", 16, _GMAC_OTHER),
    Algorithm("poly1305-camellia", "mac", 16, _POLY_OTHER),
    Algorithm("poly1305-seed", "mac", 16, _POLY_OTHER),
    Algorithm("poly1305-twofish", "mac", 16, _POLY_OTHER),
    Algorithm("poly1305-serpent", "mac", 16, _POLY_OTHER),
    # CMAC, GMAC and Poly1305 over ARIA, GMAC and Poly1305 over SM4 (libgcrypt 1.11)
    Algorithm("cmac-aria-128", "mac", 16, _CMAC_OTHER),
    Algorithm("cmac-aria-192", "mac", 16, _CMAC_OTHER),
    Algorithm("cmac-aria-256", "mac", 16, _CMAC_OTHER),
    Algorithm("gmac-aria-128", "mac", 16, _GMAC_OTHER),
    Algorithm("gmac-aria-192", "mac", 16, _GMAC_OTHER),
    Algorithm("gmac-aria-256", "mac", 16, _GMAC_OTHER),
    Algorithm("gmac-sm4", "mac", 16, _GMAC_OTHER),
    Algorithm("poly1305-aria", "mac", 16, _POLY_OTHER),
    Algorithm("poly1305-sm4", "mac", 16, _POLY_OTHER),
    Algorithm("cmac-rc2", "mac", 8, _CMAC_BROKEN),
    Algorithm("cmac-gost28147", "mac", 8, _CMAC_BROKEN),
    Algorithm("gost28147-imit", "mac", 8, _GOST89_IMIT, aliases=("gost89-imit",)),
    # SipHash, NaCl's crypto_auth
    Algorithm("siphash-2-4", "mac", 8, _SIPHASH, "siphash"),
    Algorithm("siphash-2-4-128", "mac", 8, _SIPHASH128),
    Algorithm("hmac-sha512-trunc256", "mac", 128, _HMAC_SHA512_T),
    Algorithm("blake2b-mac", "mac", 128, _BLAKE2_MAC, "blake2bmac"),
    Algorithm("blake2s-mac", "mac", 64, _BLAKE2_MAC, "blake2smac"),
    Algorithm("kmac-128", "mac", 168, _KMAC, "kmac128"),
    Algorithm("kmac-256", "mac", 136, _KMAC, "kmac256"),
    # key wrap: the openssl names are EVP cipher names (`openssl enc` refuses wrap modes)
    Algorithm("aes-128-kw", "keywrap", 16, _KW, "id-aes128-wrap", aliases=("aes-128-wrap",)),
    Algorithm("aes-192-kw", "keywrap", 16, _KW, "id-aes192-wrap", aliases=("aes-192-wrap",)),
    Algorithm("aes-256-kw", "keywrap", 16, _KW, "id-aes256-wrap", aliases=("aes-256-wrap",)),
    Algorithm("aes-128-kwp", "keywrap", 16, _KWP, "id-aes128-wrap-pad",
              aliases=("aes-128-wrap-pad",)),
    Algorithm("aes-192-kwp", "keywrap", 16, _KWP, "id-aes192-wrap-pad",
              aliases=("aes-192-wrap-pad",)),
    Algorithm("aes-256-kwp", "keywrap", 16, _KWP, "id-aes256-wrap-pad",
              aliases=("aes-256-wrap-pad",)),
    Algorithm("aes-128-kw-inv", "keywrap", 16, _KW_INV),
    Algorithm("aes-192-kw-inv", "keywrap", 16, _KW_INV),
    Algorithm("aes-256-kw-inv", "keywrap", 16, _KW_INV),
    Algorithm("aes-128-kwp-inv", "keywrap", 16, _KW_INV),
    Algorithm("aes-192-kwp-inv", "keywrap", 16, _KW_INV),
    Algorithm("aes-256-kwp-inv", "keywrap", 16, _KW_INV),
    # key wrap over the other 128-bit block ciphers (libgcrypt)
    Algorithm("twofish-128-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("twofish-128-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("twofish-256-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("twofish-256-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("serpent-128-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("serpent-128-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("serpent-192-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("serpent-192-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("serpent-256-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("serpent-256-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("seed-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("seed-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("camellia-128-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("camellia-128-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("camellia-192-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("camellia-192-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("camellia-256-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("camellia-256-kwp", "keywrap", 16, _KW_OTHER),
    Algorithm("sm4-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("sm4-kwp", "keywrap", 16, _KW_OTHER),
    # RFC 3394's wrap over ARIA (libgcrypt 1.11)
    Algorithm("aria-128-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("aria-192-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("aria-256-kw", "keywrap", 16, _KW_OTHER),
    Algorithm("3des-cms-wrap", "keywrap", 8, _CMS_3DES_WRAP, "des3-wrap",
              aliases=("des3-wrap", "id-smime-alg-cms3deswrap")),
    Algorithm("memcpy", "ref", 1, _REF),
    Algorithm("null", "ref", 1, _REF),
]

#: name -> Algorithm, in catalog order (AEADs, ciphers, hashes, MACs, key wraps, reference rows).
ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in _ENTRIES}
_ALIASES = {alias: a.name for a in _ENTRIES for alias in a.aliases}

#: The reference rows, shown on top of every table.
REFERENCE = ("memcpy", "null")
#: Operations per kind (the core's ``--op``); a key wrap's encrypt wraps a key, its decrypt
#: unwraps one.
OPS = {"aead": ("encrypt", "decrypt"), "cipher": ("encrypt", "decrypt"), "hash": ("hash",),
       "mac": ("mac",), "ref": ("ref",), "keywrap": ("encrypt", "decrypt")}


def get(name: str) -> Algorithm | None:
    """The entry for a canonical name or alias, or None."""
    name = name.strip().lower()
    return ALGORITHMS.get(name) or ALGORITHMS.get(_ALIASES.get(name, ""))


def grade_of(name: str) -> str:
    """The grade level of an algorithm ('unknown' for names outside the catalog)."""
    a = get(name)
    return a.grade.level if a else "unknown"


def order_key(name: str) -> int:
    """Position in the catalog, for stable table order (unknown names last)."""
    try:
        return list(ALGORITHMS).index(name)
    except ValueError:
        return len(ALGORITHMS)


def suggest(name: str, names: list[str] | None = None, n: int = 3) -> list[str]:
    """Close matches for a misspelt name ("did you mean ...")."""
    pool = names if names is not None else list(ALGORITHMS) + list(_ALIASES)
    return difflib.get_close_matches(name.lower(), pool, n=n, cutoff=0.5)


class NoMatch(ValueError):
    """A pattern that matches nothing; ``suggestions`` holds close names for plain names."""

    def __init__(self, pattern: str, suggestions: list[str], is_glob: bool):
        super().__init__(pattern)
        self.pattern = pattern
        self.suggestions = suggestions
        self.is_glob = is_glob


def is_glob(pattern: str) -> bool:
    """True if the pattern has glob characters."""
    return any(c in pattern for c in "*?[")


def match(patterns: list[str], names: list[str] | None = None) -> list[str]:
    """Expand names and globs (``aes-*-gcm``) against ``names`` (default: the catalog), in
    catalog order without duplicates. Raises ``NoMatch`` for the first pattern that matches
    nothing."""
    pool = names if names is not None else list(ALGORITHMS)
    chosen: list[str] = []
    for raw in patterns:
        pat = raw.strip().lower()
        if not pat:
            continue
        if is_glob(pat):
            hits = [n for n in pool if fnmatch.fnmatchcase(n, pat)]
            if not hits:
                raise NoMatch(raw, [], True)
        else:
            canonical = _ALIASES.get(pat, pat)
            if canonical not in pool:
                raise NoMatch(raw, suggest(pat, pool), False)
            hits = [canonical]
        for h in hits:
            if h not in chosen:
                chosen.append(h)
    return sorted(chosen, key=order_key)
