# SPDX-License-Identifier: GPL-3.0-or-later
"""Small block-cipher implementations for check_vectors.py, written from each cipher's own
description, for the ciphers no library here offers apart from those cipherbench measures:
RC5-32/12 (Rivest, FSE 1994; RFC 2040), RC6-32/20 (the AES submission, 1998), SKIPJACK (NIST,
SKIPJACK and KEA Algorithm Specifications 2.0, 1998), Noekeon in both key modes (Daemen, Peeters,
Van Assche, Rijmen, the NESSIE submission, 2000), SAFER K-64 (Massey, FSE 1993) with K-128
(Massey, 1994) and the strengthened SK-64 and SK-128 (Massey, 1995), Anubis and
Khazad with the tweaked S-box (Barreto and Rijmen, the NESSIE submissions, 2000, tweaked 2001)
and SAFER+ (Massey, Khachatrian, Kuregian, the AES submission, 1998). Each takes whole blocks
and is checked against its standard's own known answers first (tests/test_vectors_format.py).
They are slow, and only for the few blocks of a vector file."""
import struct

M32 = 0xFFFFFFFF


def _rotl(x, n):
    n &= 31
    return ((x << n) | (x >> (32 - n))) & M32 if n else x


def _rotr(x, n):
    return _rotl(x, 32 - (n & 31))


def _rc_schedule(key, t):
    """RC5's and RC6's key expansion: t words from the magic constants P32 and Q32 mixed
    three times with the key's little-endian words."""
    c = max(1, -(-len(key) // 4))
    words = list(struct.unpack(f"<{c}I", key.ljust(4 * c, b"\0")))
    s = [(0xB7E15163 + i * 0x9E3779B9) & M32 for i in range(t)]
    a = b = i = j = 0
    for _ in range(3 * max(t, c)):
        a = s[i] = _rotl((s[i] + a + b) & M32, 3)
        b = words[j] = _rotl((words[j] + a + b) & M32, a + b)
        i, j = (i + 1) % t, (j + 1) % c
    return s


def rc5(key, data, decrypt=False, rounds=12):
    """RC5-32/r/b over whole 8-byte blocks, the words little-endian."""
    s = _rc_schedule(key, 2 * rounds + 2)
    out = b""
    for at in range(0, len(data), 8):
        a, b = struct.unpack("<2I", data[at:at + 8])
        if not decrypt:
            a, b = (a + s[0]) & M32, (b + s[1]) & M32
            for i in range(1, rounds + 1):
                a = (_rotl(a ^ b, b) + s[2 * i]) & M32
                b = (_rotl(b ^ a, a) + s[2 * i + 1]) & M32
        else:
            for i in range(rounds, 0, -1):
                b = _rotr((b - s[2 * i + 1]) & M32, a) ^ a
                a = _rotr((a - s[2 * i]) & M32, b) ^ b
            a, b = (a - s[0]) & M32, (b - s[1]) & M32
        out += struct.pack("<2I", a, b)
    return out


def rc6(key, data, decrypt=False, rounds=20):
    """RC6-32/r/b over whole 16-byte blocks, the words little-endian."""
    s = _rc_schedule(key, 2 * rounds + 4)
    f = lambda x: _rotl((x * (2 * x + 1)) & M32, 5)  # noqa: E731
    out = b""
    for at in range(0, len(data), 16):
        a, b, c, d = struct.unpack("<4I", data[at:at + 16])
        if not decrypt:
            b, d = (b + s[0]) & M32, (d + s[1]) & M32
            for i in range(1, rounds + 1):
                t, u = f(b), f(d)
                a = (_rotl(a ^ t, u) + s[2 * i]) & M32
                c = (_rotl(c ^ u, t) + s[2 * i + 1]) & M32
                a, b, c, d = b, c, d, a
            a, c = (a + s[2 * rounds + 2]) & M32, (c + s[2 * rounds + 3]) & M32
        else:
            c, a = (c - s[2 * rounds + 3]) & M32, (a - s[2 * rounds + 2]) & M32
            for i in range(rounds, 0, -1):
                a, b, c, d = d, a, b, c
                u, t = f(d), f(b)
                c = _rotr((c - s[2 * i + 1]) & M32, t) ^ u
                a = _rotr((a - s[2 * i]) & M32, u) ^ t
            d, b = (d - s[1]) & M32, (b - s[0]) & M32
        out += struct.pack("<4I", a, b, c, d)
    return out


# SKIPJACK's F table, as the specification (section 3, Figure 3) prints it.
SKIPJACK_F = bytes.fromhex(
    "a3d70983f848f6f4b321157899b1aff9e72d4d8ace4cca2e5295d91e4e384428"
    "0adf02a017f1606812b77ac3e9fa3d5396846bbaf2639a197caee5f5f7166aa2"
    "39b67b0fc193811beeb41aead0912fb855b9da853f41bfe05a58805f660bd890"
    "35d5c0a733066569450094566d989b7697fcb2c2b0fedb20e1ebd6e4dd474a1d"
    "42ed9e6e493ccd4327d207d4dec7671889cb301f8dc68faac874dcc95d5c31a4"
    "7088612c9f0d2b8750825464267d0340344b1c73d1c4fd3bccfb7fabe63e5ba5"
    "ad04239c145122f02979717eff8c0ee20cefbc72756f37a1ecd38e628b8610e8"
    "087711be924f24c532369dcff3a6bbac5e6ca9135725b5e3bda83a0105592a46")


def skipjack(key, data, decrypt=False):
    """SKIPJACK (80-bit key) over whole 8-byte blocks: 8 steps of rule A, 8 of rule B, 8 of
    A, 8 of B, the counter 1..32; the G permutation takes key bytes 4k..4k+3 mod 10 at step k
    (from 0); words big-endian."""
    fk = SKIPJACK_F

    def g(k, w):
        a, b = w >> 8, w & 0xFF
        for i in range(4):
            a, b = b, fk[b ^ key[(4 * k + i) % 10]] ^ a
        return (a << 8) | b

    def g_inv(k, w):
        a, b = w >> 8, w & 0xFF
        for i in range(3, -1, -1):
            a, b = fk[a ^ key[(4 * k + i) % 10]] ^ b, a
        return (a << 8) | b

    rule_a = lambda k: k < 8 or 16 <= k < 24  # noqa: E731
    out = b""
    for at in range(0, len(data), 8):
        w1, w2, w3, w4 = struct.unpack(">4H", data[at:at + 8])
        if not decrypt:
            for k in range(32):
                ctr = k + 1
                if rule_a(k):
                    gw = g(k, w1)
                    w1, w2, w3, w4 = gw ^ w4 ^ ctr, gw, w2, w3
                else:
                    w1, w2, w3, w4 = w4, g(k, w1), w1 ^ w2 ^ ctr, w3
        else:
            for k in range(31, -1, -1):
                ctr = k + 1
                old1 = g_inv(k, w2)
                if rule_a(k):
                    w1, w2, w3, w4 = old1, w3, w4, w1 ^ w2 ^ ctr
                else:
                    w1, w2, w3, w4 = old1, w3 ^ old1 ^ ctr, w4, w1
        out += struct.pack(">4H", w1, w2, w3, w4)
    return out


_NOEKEON_RC = (0x80, 0x1B, 0x36, 0x6C, 0xD8, 0xAB, 0x4D, 0x9A, 0x2F, 0x5E, 0xBC, 0x63, 0xC6,
               0x97, 0x35, 0x6A, 0xD4)


def _theta(k, a):
    t = a[0] ^ a[2]
    t ^= _rotl(t, 8) ^ _rotr(t, 8)
    a[1] ^= t
    a[3] ^= t
    for i in range(4):
        a[i] ^= k[i]
    t = a[1] ^ a[3]
    t ^= _rotl(t, 8) ^ _rotr(t, 8)
    a[0] ^= t
    a[2] ^= t


def _gamma(a):
    a[1] ^= ~a[3] & ~a[2] & M32
    a[0] ^= a[2] & a[1]
    a[0], a[3] = a[3], a[0]
    a[2] ^= a[0] ^ a[1] ^ a[3]
    a[1] ^= ~a[3] & ~a[2] & M32
    a[0] ^= a[2] & a[1]


def _noekeon_round(k, a, c1, c2):
    a[0] ^= c1
    _theta(k, a)
    a[0] ^= c2
    a[1], a[2], a[3] = _rotl(a[1], 1), _rotl(a[2], 5), _rotl(a[3], 2)
    _gamma(a)
    a[1], a[2], a[3] = _rotr(a[1], 1), _rotr(a[2], 5), _rotr(a[3], 2)


def noekeon(key, data, decrypt=False, indirect=False):
    """Noekeon over whole 16-byte blocks: 16 rounds of Theta, Pi1, Gamma, Pi2 with the round
    constants, a final Theta; the working key is the key itself (direct-key mode) or, in
    indirect-key mode, the key encrypted under the null key. Words big-endian."""
    k = list(struct.unpack(">4I", key))
    if indirect:
        k = list(struct.unpack(">4I", noekeon(bytes(16), key)))
    out = b""
    for at in range(0, len(data), 16):
        a = list(struct.unpack(">4I", data[at:at + 16]))
        if not decrypt:
            for i in range(16):
                _noekeon_round(k, a, _NOEKEON_RC[i], 0)
            a[0] ^= _NOEKEON_RC[16]
            _theta(k, a)
        else:
            dk = list(k)
            _theta([0, 0, 0, 0], dk)
            for i in range(16, 0, -1):
                _noekeon_round(dk, a, 0, _NOEKEON_RC[i])
            _theta(dk, a)
            a[0] ^= _NOEKEON_RC[0]
        out += struct.pack(">4I", *a)
    return out


# SAFER's exponent and logarithm tables: 45^i mod 257, with 256 taken as 0
_SAFER_EXP = [pow(45, i, 257) % 256 for i in range(256)]
_SAFER_LOG = [0] * 256
for _i, _v in enumerate(_SAFER_EXP):
    _SAFER_LOG[_v] = _i
_ADD_BYTES = (1, 2, 5, 6)    # key added (else XORed) at these positions in the first mixing


def _safer_k64_keys(key, rounds):
    """The 2r+1 subkeys of SAFER K-64: the key, then each byte rotated left by 3 bits per
    subkey and added to the bias exp(exp(9i + j)) (i the subkey's number from 1, j from 1)."""
    return _safer_keys(key, rounds, False)


def _safer_keys(key, rounds, strengthened):
    """The 2r+1 subkeys of the SAFER K and SK schedules for an 8- or 16-byte key. K-128 (Massey,
    1994) splits the key into Ka (the first 8 bytes) and Kb (the last 8; K-64 has Ka = Kb):
    subkey 1 is Kb, subkey i > 1 comes from Ka when i is even, from Kb when i is odd, each byte
    rotated left 3(i - 1) bits, plus the bias exp(exp(9i + j)). SK (Massey's strengthened schedule, after Knudsen, 1995) appends to each
    key half its XOR as a ninth byte and takes subkey i's 8 bytes cyclically from that 9-byte
    register, starting at byte i - 1 (mod 9); subkey 1 is still Kb itself."""
    ka, kb = list(key[:8]), list(key[8:16] or key[:8])
    regs = {0: ka, 1: kb}
    for r in regs.values():
        par = 0
        for v in r:
            par ^= v
        r.append(par)
    keys = [kb[:8]]
    for i in range(2, 2 * rounds + 2):
        reg = regs[i % 2]
        rot = 3 * (i - 1) % 8
        rolled = [((b << rot) | (b >> (8 - rot))) & 0xFF for b in reg]
        start = (i - 1) % 9 if strengthened else 0
        keys.append([(rolled[(start + j) % 9] + _SAFER_EXP[_SAFER_EXP[(9 * i + j + 1) % 256]]) & 0xFF
                     for j in range(8)])
    return keys


def _pht(x):
    return [v for a, b in zip(x[0::2], x[1::2]) for v in (((2 * a + b) & 0xFF), ((a + b) & 0xFF))]


def _ipht(x):
    return [v for a, b in zip(x[0::2], x[1::2]) for v in (((a - b) & 0xFF), ((2 * b - a) & 0xFF))]


def _shuffle(x):
    return x[0::2] + x[1::2]


def _unshuffle(x):
    return [x[i // 2 + 4 * (i % 2)] for i in range(8)]


def safer_k64(key, data, decrypt=False, rounds=6):
    """SAFER K-64 over whole 8-byte blocks: per round a key mixing (XOR at bytes 0, 3, 4, 7,
    addition elsewhere), exp and log, the opposite mixing with the next subkey, three layers of
    2-point pseudo-Hadamard transforms with the shuffle between; a last mixing at the end."""
    return _safer(_safer_k64_keys(key, rounds), data, decrypt, rounds)


def safer_sk64(key, data, decrypt=False, rounds=8):
    """SAFER SK-64 (an 8-byte key, the strengthened schedule; 8 rounds recommended)."""
    return _safer(_safer_keys(key, rounds, True), data, decrypt, rounds)


def safer_k128(key, data, decrypt=False, rounds=10):
    """SAFER K-128 (a 16-byte key, the original schedule; 10 rounds recommended)."""
    return _safer(_safer_keys(key, rounds, False), data, decrypt, rounds)


def safer_sk128(key, data, decrypt=False, rounds=10):
    """SAFER SK-128 (a 16-byte key, the strengthened schedule; 10 rounds recommended)."""
    return _safer(_safer_keys(key, rounds, True), data, decrypt, rounds)


def _safer(k, data, decrypt, rounds):
    """The SAFER K/SK encryption (or decryption) of whole 8-byte blocks under subkeys k."""

    def mix(x, sub, add_at, sign=1):
        return [(v + sign * sub[j]) & 0xFF if j in add_at else v ^ sub[j] for j, v in enumerate(x)]
    xor_at = (0, 3, 4, 7)
    out = b""
    for at in range(0, len(data), 8):
        x = list(data[at:at + 8])
        if not decrypt:
            for r in range(rounds):
                x = mix(x, k[2 * r], _ADD_BYTES)
                x = [_SAFER_LOG[v] if j in _ADD_BYTES else _SAFER_EXP[v] for j, v in enumerate(x)]
                x = mix(x, k[2 * r + 1], xor_at)
                x = _pht(_shuffle(_pht(_shuffle(_pht(x)))))
            x = mix(x, k[2 * rounds], _ADD_BYTES)
        else:
            x = mix(x, k[2 * rounds], _ADD_BYTES, -1)
            for r in range(rounds - 1, -1, -1):
                x = _ipht(_unshuffle(_ipht(_unshuffle(_ipht(x)))))
                x = mix(x, k[2 * r + 1], xor_at, -1)
                x = [_SAFER_EXP[v] if j in _ADD_BYTES else _SAFER_LOG[v] for j, v in enumerate(x)]
                x = mix(x, k[2 * r], _ADD_BYTES, -1)
        out += bytes(x)
    return out


# Anubis (tweaked) and Khazad (tweaked) share one involutional S-box, built from the two 4-bit
# mini-boxes P and Q of the tweak: P and Q on the two nibbles, an exchange of the two middle bit
# pairs, Q and P, the exchange again, P and Q.
_MINI_P = (3, 15, 14, 0, 5, 4, 11, 12, 13, 10, 9, 6, 7, 8, 2, 1)
_MINI_Q = (9, 14, 5, 6, 10, 2, 3, 12, 15, 0, 4, 13, 7, 11, 1, 8)


def _middle_pairs_swapped(x):
    return (x & 0xC3) | ((x & 0x0C) << 2) | ((x & 0x30) >> 2)


def _tweak_sbox(u):
    x = (_MINI_P[u >> 4] << 4) | _MINI_Q[u & 15]
    x = _middle_pairs_swapped(x)
    x = (_MINI_Q[x >> 4] << 4) | _MINI_P[x & 15]
    x = _middle_pairs_swapped(x)
    return (_MINI_P[x >> 4] << 4) | _MINI_Q[x & 15]


_TWEAK_S = [_tweak_sbox(u) for u in range(256)]


def _gf_mul_11d(a, b):
    """Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (Anubis, Khazad)."""
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = (a << 1) ^ (0x11D if a & 0x80 else 0)
        b >>= 1
    return r


def _times_had(row, coeffs):
    """row times the Hadamard matrix had(coeffs) (entry i, j is coeffs[i ^ j]), an involution."""
    return [_xor_all(_gf_mul_11d(row[i], coeffs[i ^ j]) for i in range(len(row)))
            for j in range(len(row))]


def _xor_all(values):
    r = 0
    for v in values:
        r ^= v
    return r


_KHAZAD_H = (0x01, 0x03, 0x04, 0x05, 0x06, 0x08, 0x0B, 0x07)
_ANUBIS_H = (0x01, 0x02, 0x04, 0x06)
_ANUBIS_V = (0x01, 0x02, 0x06, 0x08)    # the key selection's Vandermonde points


def khazad(key, data, decrypt=False, rounds=8):
    """Khazad (tweaked) over whole 8-byte blocks, 128-bit key: each round the S-box on every byte
    (gamma), the row times had(01,03,04,05,06,08,0B,07) (theta), the round key (sigma); the
    last round without theta. Round key r is the round function of key r-1 under the constant
    S[8r..8r+7], XOR key r-2, starting from the key's two halves."""
    k2, k1, keys = list(key[:8]), list(key[8:16]), []
    for r in range(rounds + 1):
        k0 = [a ^ b for a, b in zip(_times_had([_TWEAK_S[v] for v in k1], _KHAZAD_H),
                                    _TWEAK_S[8 * r:8 * r + 8])]
        k0 = [a ^ b for a, b in zip(k0, k2)]
        k2, k1 = k1, k0
        keys.append(k0)
    out = b""
    for at in range(0, len(data), 8):
        x = list(data[at:at + 8])
        if not decrypt:
            x = [a ^ b for a, b in zip(x, keys[0])]
            for r in range(1, rounds):
                x = [a ^ b for a, b in zip(_times_had([_TWEAK_S[v] for v in x], _KHAZAD_H),
                                           keys[r])]
            x = [_TWEAK_S[a] ^ b for a, b in zip(x, keys[rounds])]
        else:
            x = [_TWEAK_S[a ^ b] for a, b in zip(x, keys[rounds])]
            for r in range(rounds - 1, 0, -1):
                x = [_TWEAK_S[v] for v in _times_had([a ^ b for a, b in zip(x, keys[r])],
                                                     _KHAZAD_H)]
            x = [a ^ b for a, b in zip(x, keys[0])]
        out += bytes(x)
    return out


def _anubis_keys(key):
    """Anubis's R + 1 round keys (4 x 4 byte matrices, rows): the key is an N x 4 matrix kappa;
    each round key is the Vandermonde combination of its S-boxed rows (key selection), and
    kappa evolves by the S-box, column j rotated down by j rows, the rows times had(1,2,4,6)
    and the constant S[4(r-1)..4r-1] added to row 0."""
    n = len(key) // 4
    kappa = [list(key[4 * i:4 * i + 4]) for i in range(n)]
    keys = []
    for r in range(8 + n + 1):
        sub = [[_TWEAK_S[v] for v in row] for row in kappa]
        keys.append([[_xor_all(_gf_mul_11d(sub[i][j], _gf_pow(_ANUBIS_V[m], i)) for i in range(n))
                      for m in range(4)] for j in range(4)])
        shifted = [[sub[(i - j) % n][j] for j in range(4)] for i in range(n)]
        kappa = [_times_had(row, _ANUBIS_H) for row in shifted]
        kappa[0] = [a ^ b for a, b in zip(kappa[0], _TWEAK_S[4 * r:4 * r + 4])]
    return keys


def _gf_pow(a, e):
    r = 1
    for _ in range(e):
        r = _gf_mul_11d(r, a)
    return r


def anubis(key, data, decrypt=False):
    """Anubis (tweaked) over whole 16-byte blocks (a 4 x 4 byte matrix, row after row), any key
    of 4N bytes (N from 4 to 10), R = 8 + N rounds: each round the S-box (gamma), the transpose
    (tau), the rows times had(1,2,4,6) (theta) and the round key (sigma); the last round without
    theta."""
    keys = _anubis_keys(key)
    rounds = len(keys) - 1

    def add(m, k):
        return [[a ^ b for a, b in zip(ra, rb)] for ra, rb in zip(m, k)]

    def sub_transpose(m):
        return [[_TWEAK_S[m[j][i]] for j in range(4)] for i in range(4)]
    out = b""
    for at in range(0, len(data), 16):
        m = [list(data[at + 4 * i:at + 4 * i + 4]) for i in range(4)]
        if not decrypt:
            m = add(m, keys[0])
            for r in range(1, rounds):
                m = add([_times_had(row, _ANUBIS_H) for row in sub_transpose(m)], keys[r])
            m = add(sub_transpose(m), keys[rounds])
        else:
            m = sub_transpose(add(m, keys[rounds]))
            for r in range(rounds - 1, 0, -1):
                m = sub_transpose([_times_had(row, _ANUBIS_H) for row in add(m, keys[r])])
            m = add(m, keys[0])
        out += bytes(v for row in m for v in row)
    return out


# SAFER+ (the AES submission of Massey, Khachatrian and Kuregian, 1998; Bluetooth's Ar): the
# exponent and logarithm boxes of SAFER, 16 bytes, the key bytes XORed at the "exp" positions
_SAFERP_EXP_AT = (0, 3, 4, 7, 8, 11, 12, 15)
_ARMENIAN_SHUFFLE = (8, 11, 12, 15, 2, 1, 6, 5, 10, 9, 14, 13, 0, 7, 4, 3)


def _saferp_keys(key):
    """The 2r + 1 subkeys of SAFER+ with a 128-bit key (r = 8): a 17-byte register (the key and
    the XOR of its bytes); subkey 1 is the key; for subkey i from 2 each register byte is
    rotated left by 3 bits and subkey i is 16 register bytes from position i - 1 (cyclically),
    each added to the bias exp(exp(17i + j + 1))."""
    reg = list(key) + [_xor_all(key)]
    keys = [list(key)]
    for i in range(2, 18):
        reg = [((b << 3) | (b >> 5)) & 0xFF for b in reg]
        keys.append([(reg[(i - 1 + j) % 17] + _SAFER_EXP[_SAFER_EXP[(17 * i + j + 1) % 256]])
                     & 0xFF for j in range(16)])
    return keys


def _saferp_pht_layer(x):
    return [v for a, b in zip(x[0::2], x[1::2]) for v in (((2 * a + b) & 0xFF), ((a + b) & 0xFF))]


def _saferp_ipht_layer(x):
    return [v for a, b in zip(x[0::2], x[1::2]) for v in (((a - b) & 0xFF), ((2 * b - a) & 0xFF))]


def safer_plus(key, data, decrypt=False):
    """SAFER+ with a 128-bit key (8 rounds) over whole 16-byte blocks: per round the first
    subkey XORed at bytes 0, 3, 4, 7, 8, 11, 12, 15 and added elsewhere, exp there and log
    elsewhere, the second subkey added there and XORed elsewhere, then four layers of 2-point
    pseudo-Hadamard transforms with the Armenian shuffle between them; after the last round
    subkey 17 mixed as the first subkey of a round."""
    k = _saferp_keys(key)
    out = b""
    for at in range(0, len(data), 16):
        x = list(data[at:at + 16])
        if not decrypt:
            for r in range(8):
                ka, kb = k[2 * r], k[2 * r + 1]
                x = [(_SAFER_EXP[v ^ ka[j]] + kb[j]) & 0xFF if j in _SAFERP_EXP_AT
                     else _SAFER_LOG[(v + ka[j]) & 0xFF] ^ kb[j] for j, v in enumerate(x)]
                for layer in range(4):
                    x = _saferp_pht_layer(x)
                    if layer < 3:
                        x = [x[s] for s in _ARMENIAN_SHUFFLE]
            x = [v ^ k[16][j] if j in _SAFERP_EXP_AT else (v + k[16][j]) & 0xFF
                 for j, v in enumerate(x)]
        else:
            x = [v ^ k[16][j] if j in _SAFERP_EXP_AT else (v - k[16][j]) & 0xFF
                 for j, v in enumerate(x)]
            for r in range(7, -1, -1):
                ka, kb = k[2 * r], k[2 * r + 1]
                for layer in range(4):
                    if layer > 0:
                        unshuffled = [0] * 16
                        for i, s in enumerate(_ARMENIAN_SHUFFLE):
                            unshuffled[s] = x[i]
                        x = unshuffled
                    x = _saferp_ipht_layer(x)
                x = [_SAFER_LOG[(v - kb[j]) & 0xFF] ^ ka[j] if j in _SAFERP_EXP_AT
                     else (_SAFER_EXP[v ^ kb[j]] - ka[j]) & 0xFF for j, v in enumerate(x)]
        out += bytes(x)
    return out
