# SPDX-License-Identifier: GPL-3.0-or-later
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
            status: str = "complete", meta: dict | None = None, via: str = "transfer") -> int:
    """A finished ``ssh`` run against the private server (or ``host``), as ``cipherbench ssh``
    stores it (``via``: the tool, stored as the op; ``transfer`` before the tools)."""
    run = store.begin_run("ssh", {"host": host or "127.0.0.1 (private sshd)", "size": 32 << 20},
                          _meta(flags, meta))
    for algo, mbs in rates.items():
        cipher, _, mac = algo.partition("+")
        lib = "tcp" if algo == "cleartext-tcp" else "openssh"
        op = "transfer" if algo == "cleartext-tcp" else via
        store.add_result(run, Result("ssh", lib, algo, op, 32 << 20, "bytes_per_s",
                                     "B/s", mbs * MB, mbs * MB * 0.98, mbs * MB * 1.02, 3, 0.01,
                                     extra={"cipher": cipher, "mac": mac or None,
                                            "client_default": cipher.startswith("chacha")}))
    store.finish_run(run, status)
    return run


def _combo(algo: str):
    from cipherbench.scenarios.ssh import sweep
    cipher, _, mac = algo.partition("+")
    return sweep.Combo(cipher, mac or None)


def add_ssh_rounds(store: Store, rounds: dict[str, list[float]], flags: list[str],
                   default: str = "chacha20-poly1305@openssh.com", host: str | None = None,
                   status: str = "complete", meta: dict | None = None,
                   size: int = 8 << 20, seed: int = 5,
                   cpu: dict[str, list[float]] | None = None, busy: float | None = None,
                   alone: dict[str, float] | None = None) -> int:
    """A finished ``ssh`` run as ``cipherbench ssh`` stores it since the paired rounds: the
    real sweep (``sweep.sweep``, a new random order each round) over transfer doubles whose
    rate in round ``i`` is ``rounds[algo][i]`` MB/s, each sample stored as its ``round_s``
    row (``tables.round_result``), then the per-candidate rows computed from them
    (``tables.summary_results``). ``cleartext-tcp`` is the baseline. ``cpu``: per algorithm,
    the bytes per CPU second of both ends (MB/s) in each round, read to the nanosecond as
    schedstat gives them (then verdicts between ciphers are judged on it); without it each end
    uses half the wall time in clock ticks, too coarse to judge on. ``busy``: each end's CPU
    time as this share of the wall time instead. ``alone``: catalog algorithm -> MB/s of the
    cipher or MAC measured alone, stored as ``cipher_cost`` rows of the run."""
    import random

    from cipherbench.scenarios.ssh import sweep, tables
    from cipherbench.scenarios.ssh.transfer import TransferSample

    n = len(next(iter(rounds.values())))
    combos = [_combo(a) for a in rounds if a != sweep.BASELINE]
    cands = sweep.candidates(combos, ["pipe"], sweep.BASELINE in rounds)
    state = {"round": 0}

    def sampler_for(c: sweep.Cand):
        def sample(data, verify, max_s):
            nbytes = len(data) if verify else size
            wall = 0.01 if verify else nbytes / (rounds[c.combo.algo][state["round"]] * MB)
            both = wall if busy is None else 2 * busy * wall
            if cpu and c.combo.algo in cpu and not verify:
                both = nbytes / (cpu[c.combo.algo][state["round"]] * MB)
            return TransferSample(nbytes=nbytes, wall_s=wall, setup_s=0.01,
                                  client_cpu_s=both / 2, client_cpu_total_s=both,
                                  server_cpu_s=both / 2, server_cpu_method="schedstat",
                                  client_cpu_method="schedstat" if cpu else "rusage",
                                  sink_cpu_s=None,
                                  extra={"tool": "python"} if c.is_baseline else {})
        return sample

    def on_start(c, i):
        state["round"] = i

    run = store.begin_run("ssh", {"host": host or "127.0.0.1 (private sshd)", "size": size,
                                  "rounds": n}, _meta(flags, meta))
    position: dict[int, int] = {}

    def on_sample(c, i, s, check):
        position[i] = position.get(i, 0) + 1
        store.add_result(run, tables.round_result(c, i, position[i], s, check, target="t",
                                                  client_default=_combo(default),
                                                  requested=size))

    sweep.sweep(cands, sampler_for, bytes(1 << 16), n_rounds=n, rng=random.Random(seed),
                 on_start=on_start, on_sample=on_sample)
    for r in tables.summary_results(store.results(run, "ssh")):
        store.add_result(run, r)
    for algo, mbs in (alone or {}).items():
        store.add_result(run, cost_row(algo, mbs))
    store.finish_run(run, status)
    return run


def cost_row(algo: str, mbs: float, lib: str = "openssl"):
    """A cipher (or MAC) measured alone in an ssh run, as ``scenarios.ssh.cipher_cost``
    stores it."""
    from cipherbench.scenarios.ssh import cipher_cost
    from cipherbench.store import Result
    return Result("ssh", lib, algo, "mac" if algo.startswith(("hmac", "umac")) else "encrypt",
                  cipher_cost.SIZE, cipher_cost.METRIC, "B/s", median=mbs * MB,
                  ci_low=mbs * MB * 0.98, ci_high=mbs * MB * 1.02, n_samples=20, cv=0.01,
                  extra={"role": "cipher-cost"})


def steady(mbs: float, load: list[float], wobble: list[float] | None = None) -> list[float]:
    """Per-round MB/s of a candidate: ``mbs`` slowed by the machine's ``load`` in each round
    (alike for every candidate of the round), times its own ``wobble`` (1.0: none)."""
    return [mbs / l * (wobble[i] if wobble else 1.0) for i, l in enumerate(load)]


#: The machine's slowness round by round (up to 60%: a busy machine).
LOAD = [1.0, 1.3, 1.1, 1.6, 1.05, 1.4, 1.2, 1.5, 1.0, 1.35, 1.15, 1.25]


def add_gpg(store: Store, rates: dict, flags: list[str], default: str | None = None) -> int:
    """A finished ``gpg`` run (encryption only), as ``cipherbench gpg`` stores it; ``default``:
    the cipher it read from gpg's packets as gpg's own default."""
    run = store.begin_run("gpg", {"size": 32 << 20}, _meta(flags))
    size = 32 << 20
    for algo, mbs in rates.items():
        tool, name = ("age", "chacha20-poly1305") if algo == "age" else ("gnupg", algo)
        extra = {"wall_s": size / (mbs * MB)}
        if default:
            extra["default_cipher"] = default
        store.add_result(run, Result("gpg", tool, name, "encrypt", size, "bytes_per_s", "B/s",
                                     mbs * MB, mbs * MB * 0.98, mbs * MB * 1.02, 3, 0.01,
                                     extra=extra))
    store.finish_run(run, "complete")
    return run


def add_tls(store: Store, rates: dict, flags: list[str], lib: str = "openssl",
            default: str = "TLS_AES_256_GCM_SHA384", meta: dict | None = None,
            ci: float = 0.01) -> int:
    """A finished ``tls`` run of ``lib``'s record layer at 16 KiB writes (MB/s by IANA name),
    as ``cipherbench tls`` stores it: the library's version and no CPU capabilities (its
    listing has none), beside the default suite it measured the others against."""
    libs = {"libraries": {lib: {"version": "3.0.19"}}, "core_version": "0.9.0"}
    run = store.begin_run("tls", {"libs": [lib], "sizes": [16384]},
                          _meta(flags, dict(libs, **(meta or {}))))
    for iana, mbs in rates.items():
        store.add_result(run, Result("tls", lib, iana, "transfer", 16384, "bytes_per_s", "B/s",
                                     mbs * MB, mbs * MB * (1 - ci), mbs * MB * (1 + ci), 9,
                                     0.01, extra={"default_suite": default}))
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
