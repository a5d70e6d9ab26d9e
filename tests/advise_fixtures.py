"""Recorded results for the advisor tests: a store filled with runs as the measuring commands
write them (primitive, ssh, gpg), for a CPU with AES instructions and one without."""
from __future__ import annotations

from cipherbench.store import Result, Store

MB = 1e6
#: (library, algorithm, op) -> bytes/s, recorded on a CPU with AES-NI and on one without.
AES_CPU = {
    "aes-128-gcm": 4000, "aes-256-gcm": 3300, "chacha20-poly1305": 1700, "aes-128-ccm": 1100,
    "aes-128-cbc": 1200, "aes-256-cbc": 900, "camellia-128-cbc": 150, "3des-cbc": 30,
    "rc4": 700, "aes-128-xts": 5000, "aes-256-xts": 4000, "aes-128-ctr": 5200,
    "hmac-sha1": 1000, "hmac-sha256": 500, "hmac-sha512": 800, "hmac-md5": 700,
}
NO_AES_CPU = {
    "aes-128-gcm": 95, "aes-256-gcm": 75, "chacha20-poly1305": 420, "aes-128-ccm": 60,
    "aes-128-cbc": 110, "aes-256-cbc": 85, "camellia-128-cbc": 90, "3des-cbc": 20,
    "rc4": 300, "aes-128-xts": 120, "aes-256-xts": 95, "aes-128-ctr": 120,
    "hmac-sha1": 400, "hmac-sha256": 180, "hmac-sha512": 250, "hmac-md5": 450,
}
#: ssh transfers (MB/s) and the cleartext baseline.
SSH_AES = {"aes128-gcm@openssh.com": 980, "aes256-gcm@openssh.com": 900,
           "chacha20-poly1305@openssh.com": 610,
           "aes128-ctr+umac-128-etm@openssh.com": 760, "3des-cbc+umac-128-etm@openssh.com": 25,
           "cleartext-tcp": 3000}
SSH_NO_AES = {"aes128-gcm@openssh.com": 70, "aes256-gcm@openssh.com": 58,
              "chacha20-poly1305@openssh.com": 240,
              "aes128-ctr+umac-128-etm@openssh.com": 85, "3des-cbc+umac-128-etm@openssh.com": 16,
              "cleartext-tcp": 900}
GPG = {"AES": 310, "AES256": 280, "TWOFISH": 200, "CAMELLIA128": 190, "CAST5": 150,
       "3DES": 40, "age": 700}


def _meta(flags: list[str], extra: dict | None = None) -> dict:
    return {"cpu_model": "Recorded CPU", "cpu_flags": flags, "hostname": "recorded",
            **(extra or {})}


def add_primitive(store: Store, rates: dict, flags: list[str], lib: str = "openssl",
                  meta: dict | None = None, scale: float = 1.0) -> int:
    """A finished ``run`` with one 16 KiB point per algorithm."""
    run = store.begin_run("run", {"preset": "quick"}, _meta(flags, meta))
    size = 16384
    for algo, mbs in rates.items():
        op = "mac" if algo.startswith("hmac") else "encrypt"
        ns = size / (mbs * MB * scale) * 1e9
        store.add_result(run, Result("primitive", lib, algo, op, size, "ns_per_op", "ns", ns,
                                     ns * 0.99, ns * 1.01, 10, 0.01))
    store.finish_run(run, "complete")
    return run


def add_ssh(store: Store, rates: dict, flags: list[str], host: str | None = None,
            status: str = "complete", meta: dict | None = None) -> int:
    """A finished ``ssh`` run against the private server (or ``host``), as ``cipherbench ssh``
    stores it."""
    run = store.begin_run("ssh", {"host": host or "127.0.0.1 (private sshd)", "size": 32 << 20},
                          _meta(flags, meta))
    for algo, mbs in rates.items():
        cipher, _, mac = algo.partition("+")
        lib = "tcp" if algo == "cleartext-tcp" else "openssh"
        store.add_result(run, Result("ssh", lib, algo, "transfer", 32 << 20, "bytes_per_s",
                                     "B/s", mbs * MB, mbs * MB * 0.98, mbs * MB * 1.02, 3, 0.01,
                                     extra={"cipher": cipher, "mac": mac or None,
                                            "client_default": cipher.startswith("chacha")}))
    store.finish_run(run, status)
    return run


def add_gpg(store: Store, rates: dict, flags: list[str]) -> int:
    """A finished ``gpg`` run (encryption only), as ``cipherbench gpg`` stores it."""
    run = store.begin_run("gpg", {"size": 32 << 20}, _meta(flags))
    size = 32 << 20
    for algo, mbs in rates.items():
        tool, name = ("age", "chacha20-poly1305") if algo == "age" else ("gnupg", algo)
        store.add_result(run, Result("gpg", tool, name, "encrypt", size, "bytes_per_s", "B/s",
                                     mbs * MB, mbs * MB * 0.98, mbs * MB * 1.02, 3, 0.01,
                                     extra={"wall_s": size / (mbs * MB)}))
    store.finish_run(run, "complete")
    return run


def fill(path, cpu: str) -> dict:
    """A store at ``path`` holding one machine's primitive, ssh and gpg runs."""
    aes = cpu == "aes"
    flags = ["aes", "pclmulqdq", "avx2"] if aes else ["ssse3"]
    with Store.open(path) as store:
        return {"primitive": add_primitive(store, AES_CPU if aes else NO_AES_CPU, flags),
                "ssh": add_ssh(store, SSH_AES if aes else SSH_NO_AES, flags),
                "gpg": add_gpg(store, GPG, flags)}
