#!/usr/bin/env python3
"""Re-verify every known-answer vector file with implementations independent of cipherbench.

Each vector in vectors/*.json is recomputed with Python's hashlib and hmac, with pyca/cryptography
(hashes also with the openssl command where it is installed), and, for what neither has (Twofish, Serpent, Salsa20, Salsa20/12, UMAC), with libsodium or Nettle
loaded through ctypes. Ciphers and AEADs are checked in both directions (encrypt gives ct and tag,
decrypt gives pt back). A must-fail vector ("result": "invalid") is checked to be refused: the
AEAD decryption raises InvalidTag (or refuses the sizes), the MAC differs (or refuses the key).

Usage: check_vectors.py [FILE...]   (default: every *.json beside this script and in its invalid/)
Exit status: 0 if nothing mismatched, 1 if a vector mismatched or a file is malformed, 2 for usage.
Files whose algorithm no independent implementation here covers are listed as unchecked.
"""
import ctypes
import ctypes.util
import hashlib
import hmac
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ALGORITHMS_C = HERE.parent / "core" / "algorithms.c"


class Unavailable(Exception):
    """No independent implementation of this algorithm is available here."""


def load_registry(path=ALGORITHMS_C):
    """Return {name: (kind, key, iv, tag, block)} parsed from the core's algorithm table."""
    row = re.compile(r'\{\s*"([^"]+)",\s*CB_(\w+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\s*\}')
    reg = {}
    for m in row.finditer(path.read_text()):
        reg[m.group(1)] = (m.group(2).lower(),) + tuple(int(m.group(i)) for i in range(3, 7))
    return reg


def unhex(v, field):
    """Bytes of the hex field `field` of vector `v` ('' when absent)."""
    return bytes.fromhex(v.get(field, ""))


# --- pyca/cryptography -------------------------------------------------------------------

def _crypto():
    try:
        import cryptography.hazmat.primitives.ciphers as ciphers  # noqa: F401
    except ImportError as e:
        raise Unavailable("pyca/cryptography is not installed") from e
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    try:
        from cryptography.hazmat.decrepit.ciphers import algorithms as old
    except ImportError:
        old = algorithms
    return Cipher, algorithms, modes, old


def _cfb(iv):
    try:  # CFB moved to the decrepit module in pyca/cryptography 47
        from cryptography.hazmat.decrepit.ciphers.modes import CFB
    except ImportError:
        from cryptography.hazmat.primitives.ciphers.modes import CFB
    return CFB(iv)


def _aead(algo, key, tag_len):
    try:
        from cryptography.hazmat.primitives.ciphers import aead
    except ImportError as e:
        raise Unavailable("pyca/cryptography is not installed") from e
    if algo.endswith("-gcm"):
        return aead.AESGCM(key)
    if algo.endswith("-ccm"):
        return aead.AESCCM(key, tag_length=tag_len)
    if algo.endswith("-ocb"):
        return aead.AESOCB3(key)
    if algo == "chacha20-poly1305":
        return aead.ChaCha20Poly1305(key)
    raise Unavailable(algo)


def invalid(v):
    """Is this a must-fail vector ("result": "invalid")?"""
    return v.get("result", "valid") == "invalid"


def check_aead(algo, v):
    """Return a list of mismatch descriptions for one AEAD vector."""
    key, iv, aad, pt, ct, tag = (unhex(v, f) for f in ("key", "iv", "aad", "pt", "ct", "tag"))
    if invalid(v):
        return _aead_refuses(algo, key, iv, aad, ct, tag)
    box = _aead(algo, key, len(tag))
    out = box.encrypt(iv, pt, aad)
    errs = []
    if out[:len(pt)] != ct:
        errs.append("ct")
    if out[len(pt):] != tag:
        errs.append("tag")
    if box.decrypt(iv, ct + tag, aad) != pt:
        errs.append("decrypt")
    return errs


def _aead_refuses(algo, key, iv, aad, ct, tag):
    """[] when decrypting ct and tag is refused (a bad tag, or sizes refused), else why not."""
    from cryptography.exceptions import InvalidTag
    try:
        box = _aead(algo, key, 16)   # a receiver expecting the whole tag
        box.decrypt(iv, ct + tag, aad)
    except (InvalidTag, ValueError):
        return []
    return ["decrypts, but must be refused"]


# --- block and stream ciphers ------------------------------------------------------------

def _pyca_cipher(algo, key, iv):
    Cipher, algorithms, modes, old = _crypto()
    m = re.fullmatch(r"(aes|camellia)-(\d+)-(cbc|ctr|cfb|ecb|xts)", algo)
    if m:
        family, _, mode = m.groups()
        alg = algorithms.AES(key) if family == "aes" else old.Camellia(key)
        mode_obj = {"cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv),
                    "cfb": lambda: _cfb(iv), "ecb": modes.ECB,
                    "xts": lambda: modes.XTS(iv)}[mode]()
        return Cipher(alg, mode_obj)
    if algo == "sm4-cbc":
        return Cipher(algorithms.SM4(key), modes.CBC(iv))
    if algo == "blowfish-cbc":
        return Cipher(old.Blowfish(key), modes.CBC(iv))
    if algo == "cast5-cbc":
        return Cipher(old.CAST5(key), modes.CBC(iv))
    if algo == "idea-cbc":
        return Cipher(old.IDEA(key), modes.CBC(iv))
    if algo == "3des-cbc":
        return Cipher(old.TripleDES(key), modes.CBC(iv))
    if algo == "des-cbc":  # 3DES with K1 = K2 = K3 is single DES
        return Cipher(old.TripleDES(key * 3), modes.CBC(iv))
    if algo == "rc4":
        return Cipher(old.ARC4(key), None)
    if algo == "chacha20":  # pyca's 16-byte nonce: 32-bit little-endian block counter, then nonce
        return Cipher(algorithms.ChaCha20(key, (0).to_bytes(4, "little") + iv), None)
    return None


def _run(cipher, data, encrypt=True):
    ctx = cipher.encryptor() if encrypt else cipher.decryptor()
    return ctx.update(data) + ctx.finalize()


def _ctr_over_ecb(algo, key, iv, data):
    """CTR from the ECB block function (pyca has no Camellia-CTR): 128-bit big-endian counter."""
    Cipher, _, modes, old = _crypto()
    ecb = Cipher(old.Camellia(key), modes.ECB()).encryptor()
    counter, out = int.from_bytes(iv, "big"), b""
    for i in range(0, len(data), 16):
        pad = ecb.update(counter.to_bytes(16, "big"))
        out += bytes(a ^ b for a, b in zip(data[i:i + 16], pad))
        counter = (counter + 1) % (1 << 128)
    return out


def _lib(names):
    for name in names:
        path = ctypes.util.find_library(name)
        if path:
            try:
                return ctypes.CDLL(path)
            except OSError:
                pass
    return None


def _nettle():
    lib = _lib(["nettle"])
    if lib is None:
        raise Unavailable("Nettle (libnettle) is not installed")
    return lib


def _nettle_cbc(algo, key, iv, data, encrypt):
    """Twofish or Serpent in CBC, the block function from Nettle, the chaining done here."""
    lib = _nettle()
    name = algo.split("-")[0]
    ctx = ctypes.create_string_buffer(16384)  # larger than any Nettle cipher context
    getattr(lib, f"nettle_{name}_set_key")(ctx, ctypes.c_size_t(len(key)), key)
    block = getattr(lib, f"nettle_{name}_encrypt" if encrypt else f"nettle_{name}_decrypt")
    out, prev = b"", iv
    for i in range(0, len(data), 16):
        chunk = data[i:i + 16]
        buf = ctypes.create_string_buffer(16)
        if encrypt:
            block(ctx, ctypes.c_size_t(16), buf, bytes(a ^ b for a, b in zip(chunk, prev)))
            prev = buf.raw
            out += prev
        else:
            block(ctx, ctypes.c_size_t(16), buf, chunk)
            out += bytes(a ^ b for a, b in zip(buf.raw, prev))
            prev = chunk
    return out


def _sodium_salsa(algo, key, iv, data):
    lib = _lib(["sodium"])
    if lib is None:
        raise Unavailable("libsodium is not installed")
    fn = lib.crypto_stream_salsa20_xor if algo == "salsa20" else lib.crypto_stream_salsa2012_xor
    out = ctypes.create_string_buffer(max(len(data), 1))
    if fn(out, data, ctypes.c_ulonglong(len(data)), iv, key) != 0:
        raise RuntimeError("libsodium refused the input")
    return out.raw[:len(data)]


def _nettle_salsa(algo, key, iv, data):
    lib = _nettle()
    ctx = ctypes.create_string_buffer(1024)
    lib.nettle_salsa20_256_set_key(ctx, key)
    lib.nettle_salsa20_set_nonce(ctx, iv)
    out = ctypes.create_string_buffer(max(len(data), 1))
    crypt = lib.nettle_salsa20_crypt if algo == "salsa20" else lib.nettle_salsa20r12_crypt
    crypt(ctx, ctypes.c_size_t(len(data)), out, data)
    return out.raw[:len(data)]


def _ecb_block(algo, key):
    """The raw block encryption (and block size) of a 64-bit cipher or Twofish, from pyca or
    Nettle, for checking full-block CFB independently of the libraries under test."""
    Cipher, _algorithms, modes, old = _crypto()
    family = algo.rsplit("-", 1)[0]
    pyca = {"blowfish": old.Blowfish, "cast5": old.CAST5, "idea": old.IDEA,
            "3des": old.TripleDES}.get(family)
    if pyca is not None:
        enc = Cipher(pyca(key), modes.ECB()).encryptor()
        return (lambda block: enc.update(block)), 8
    if family == "twofish-256":
        lib = _nettle()
        ctx = ctypes.create_string_buffer(16384)
        lib.nettle_twofish_set_key(ctx, ctypes.c_size_t(len(key)), key)

        def encrypt(block):
            buf = ctypes.create_string_buffer(16)
            lib.nettle_twofish_encrypt(ctx, ctypes.c_size_t(16), buf, block)
            return buf.raw
        return encrypt, 16
    return None, 0


def cfb_full_block(encrypt, bs, iv, data, decrypt=False):
    """CFB with feedback of the whole block (OpenPGP's CFB), over a block function."""
    out, reg = b"", iv
    for i in range(0, len(data), bs):
        chunk = data[i:i + bs]
        ks = encrypt(reg)
        res = bytes(a ^ b for a, b in zip(chunk, ks))
        out += res
        reg = chunk if decrypt else res
    return out


def check_cipher(algo, v):
    """Return a list of mismatch descriptions for one cipher vector."""
    key, iv, pt, ct = (unhex(v, f) for f in ("key", "iv", "pt", "ct"))
    errs = []
    if algo in ("salsa20", "salsa20r12"):
        # two independent implementations: libsodium and Nettle
        for who, fn in (("libsodium", _sodium_salsa), ("nettle", _nettle_salsa)):
            if fn(algo, key, iv, pt) != ct:
                errs.append(f"ct ({who})")
        return errs
    if algo in ("twofish-256-cbc", "serpent-256-cbc"):
        if _nettle_cbc(algo, key, iv, pt, True) != ct:
            errs.append("ct (nettle)")
        if _nettle_cbc(algo, key, iv, ct, False) != pt:
            errs.append("decrypt (nettle)")
        return errs
    if algo.startswith("camellia-") and algo.endswith("-ctr"):
        if _ctr_over_ecb(algo, key, iv, pt) != ct:
            errs.append("ct")
        return errs
    if algo.endswith("-cfb") and not algo.startswith(("aes-", "camellia-")):
        encrypt, bs = _ecb_block(algo, key)
        if encrypt is None:
            raise Unavailable(algo)
        if cfb_full_block(encrypt, bs, iv, pt) != ct:
            errs.append("ct")
        if cfb_full_block(encrypt, bs, iv, ct, decrypt=True) != pt:
            errs.append("decrypt")
        return errs
    cipher = _pyca_cipher(algo, key, iv)
    if cipher is None:
        raise Unavailable(algo)
    if _run(cipher, pt) != ct:
        errs.append("ct")
    if _run(cipher, ct, encrypt=False) != pt:
        errs.append("decrypt")
    return errs


# --- hashes and MACs ---------------------------------------------------------------------

HASHLIB = {"md5": "md5", "sha1": "sha1", "sha224": "sha224", "sha256": "sha256",
           "sha384": "sha384", "sha512": "sha512", "sha512-256": "sha512_256",
           "sha3-256": "sha3_256", "sha3-512": "sha3_512", "shake128": "shake_128",
           "blake2b-512": "blake2b", "blake2s-256": "blake2s", "ripemd160": "ripemd160",
           "sm3": "sm3"}


def _new_hash(algo):
    try:
        return hashlib.new(HASHLIB[algo])
    except (KeyError, ValueError) as e:
        raise Unavailable(f"hashlib has no {algo}") from e


def check_hash(algo, v):
    """Return a list of mismatch descriptions for one hash vector."""
    msg, md = unhex(v, "msg"), unhex(v, "md")
    h = _new_hash(algo)
    for _ in range(v.get("repeat", 1)):
        h.update(msg)
    got = h.digest(len(md)) if algo == "shake128" else h.digest()
    errs = [] if got == md else ["md"]
    other = _openssl_dgst(algo, msg * v.get("repeat", 1), len(md))
    if other is not None and other != md:
        errs.append("md (openssl dgst)")
    return errs


OPENSSL_DGST = {"sha512-256": "sha512-256", "blake2b-512": "blake2b512", "blake2s-256": "blake2s256"}


def _openssl_dgst(algo, data, out_len):
    """The digest from the openssl command, or None where it is missing or lacks the algorithm."""
    if shutil.which("openssl") is None:
        return None
    args = ["openssl", "dgst", "-" + OPENSSL_DGST.get(algo, algo), "-binary"]
    if algo == "shake128":
        args += ["-xoflen", str(out_len)]
    run = subprocess.run(args, input=data, capture_output=True, check=False)
    return run.stdout if run.returncode == 0 and run.stdout else None


def _nettle_umac(algo, key, nonce, msg, out_len):
    lib = _nettle()
    name = "umac64" if algo == "umac-64" else "umac128"
    ctx = ctypes.create_string_buffer(65536)  # larger than Nettle's umac contexts
    getattr(lib, f"nettle_{name}_set_key")(ctx, key)
    getattr(lib, f"nettle_{name}_set_nonce")(ctx, ctypes.c_size_t(len(nonce)), nonce)
    getattr(lib, f"nettle_{name}_update")(ctx, ctypes.c_size_t(len(msg)), msg)
    out = ctypes.create_string_buffer(out_len)
    getattr(lib, f"nettle_{name}_digest")(ctx, ctypes.c_size_t(out_len), out)
    return out.raw


#: Whole tag length of the MACs whose output length is a choice (for must-fail vectors).
MAC_TAG = {"umac-64": 8, "umac-128": 16}


def check_mac(algo, v):
    """Return a list of mismatch descriptions for one MAC vector."""
    key, iv, msg, mac = (unhex(v, f) for f in ("key", "iv", "msg", "mac"))
    msg = msg * v.get("repeat", 1)
    if invalid(v):
        # The whole tag must differ from mac (a shorter mac never is the whole tag); a key
        # of a length the MAC does not take is refused.
        try:
            got = _mac(algo, key, iv, msg, MAC_TAG.get(algo, len(mac)))
        except ValueError:
            return []
        return ["gives this mac, which must differ"] if got == mac else []
    got = _mac(algo, key, iv, msg, len(mac))
    return [] if got[:len(mac)] == mac else ["mac"]


def _mac(algo, key, iv, msg, out_len):
    """The MAC of msg (UMAC: out_len bytes; the others their whole tag)."""
    if algo.startswith("hmac-"):
        got = hmac.new(key, msg, algo[5:]).digest()
    elif algo == "poly1305":
        try:
            from cryptography.hazmat.primitives.poly1305 import Poly1305
        except ImportError as e:
            raise Unavailable("pyca/cryptography is not installed") from e
        got = Poly1305.generate_tag(key, msg)
    elif algo == "cmac-aes-128":
        try:
            from cryptography.hazmat.primitives import cmac
            from cryptography.hazmat.primitives.ciphers import algorithms
        except ImportError as e:
            raise Unavailable("pyca/cryptography is not installed") from e
        c = cmac.CMAC(algorithms.AES(key))
        c.update(msg)
        got = c.finalize()
    elif algo == "gmac-aes-128":  # GMAC is GCM with the message as AAD and no plaintext
        got = _aead("aes-128-gcm", key, 16).encrypt(iv, b"", msg)
    elif algo in ("umac-64", "umac-128"):
        got = _nettle_umac(algo, key, iv, msg, out_len)
    else:
        raise Unavailable(algo)
    return got


CHECKERS = {"aead": check_aead, "cipher": check_cipher, "hash": check_hash, "mac": check_mac}


def check_file(path, registry):
    """Check one vector file. Return (checked, failures, unavailable_reason or None)."""
    doc = json.loads(Path(path).read_text())
    algo = doc["algo"]
    kind = registry[algo][0]
    checked, failures = 0, []
    for v in doc["vectors"]:
        try:
            errs = CHECKERS[kind](algo, v)
        except Unavailable as e:
            return checked, failures, str(e)
        except Exception as e:  # e.g. a tag the implementation rejects, or a bad size
            errs = [f"rejected ({e.__class__.__name__}: {e})"]
        checked += 1
        failures += [f"{v['name']}: {e}" for e in errs]
    return checked, failures, None


def main(argv):
    """Check the named vector files (default: all), print a summary, return the exit status."""
    if any(a.startswith("-") for a in argv):
        print("usage: check_vectors.py [FILE...]", file=sys.stderr)
        return 2
    registry = load_registry()
    files = [Path(a) for a in argv] or sorted(HERE.glob("*.json")) + sorted(HERE.glob("invalid/*.json"))
    bad = unchecked = 0
    for f in files:
        shown = f"{f.parent.name}/{f.name}" if f.parent.name == "invalid" else f.name
        try:
            checked, failures, why = check_file(f, registry)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"FAIL {shown}: malformed ({e.__class__.__name__}: {e})")
            bad += 1
            continue
        if why is not None:
            print(f"UNCHECKED {shown}: {why}")
            unchecked += 1
        for msg in failures:
            print(f"FAIL {shown}: {msg}")
        if failures:
            bad += 1
        elif why is None:
            print(f"ok   {shown}: {checked} vectors")
    print(f"{len(files)} files, {bad} failing, {unchecked} not checked independently")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
