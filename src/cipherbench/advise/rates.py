"""A rate for every candidate from the evidence: the real path where measured, else the
primitive stand-in (cipher, and for cipher + MAC the two costs added per byte).

Without AES instructions (``--assume-no-aes`` when the store has no run with AES switched
off), AES-based rates are estimated from the known relation: software AES-GCM runs about 3x
slower than ChaCha20-Poly1305 on CPUs without AES instructions (Google Security Blog,
"Speeding up and strengthening HTTPS connections for Chrome on Android", April 2014: ChaCha20-
Poly1305 "three times faster"; libgcrypt's and OpenSSL's own benchmarks put the gap at 3-10x
depending on the CPU's vector units). So an AES candidate gets at most a third of the
ChaCha20-Poly1305 rate of the same source, or a third of its own rate where nothing to compare
with was measured. Every such figure is marked an estimate.
"""
from __future__ import annotations

from cipherbench.advise.candidates import Candidate, suite_by_name
from cipherbench.advise.evidence import Evidence, Rate, rel_ci
from cipherbench.units import format_bytes

#: ChaCha20-Poly1305 / software AES, the conservative end of the 3-10x range.
NO_AES_FACTOR = 3.0
NO_AES_SOURCE = ("estimate: without AES instructions AES runs about 3x slower than "
                 "ChaCha20-Poly1305 (Google Security Blog, April 2014; 3-10x in libgcrypt's "
                 "and OpenSSL's benchmarks)")


def combined(cipher_bps: float, mac_bps: float | None) -> float:
    """Rate of cipher then MAC over the same bytes (their times per byte add up)."""
    if not mac_bps:
        return cipher_bps
    return 1.0 / (1.0 / cipher_bps + 1.0 / mac_bps)


def primitive_rate(ev: Evidence, cand: Candidate, libs: list[str], why: str) -> Rate | None:
    """The stand-in: the candidate's cipher (and MAC) as primitives, in the first of ``libs``
    that has them (else any library that does)."""
    pool = list(dict.fromkeys(libs + sorted({l for (l, _a, _o) in ev.primitive})))
    got = ev.primitive_bps(cand.cipher, pool)
    if got is None:
        return None
    bps, p = got
    runs = {p.run.id}
    rel = rel_ci(p.result)
    detail = f"{p.result.lib} {cand.cipher} at {format_bytes(p.result.size or 0)}"
    if cand.mac:
        m = ev.primitive_bps(cand.mac, [p.result.lib] + pool, "mac")
        if m is None:
            return None
        bps = combined(bps, m[0])
        runs.add(m[1].run.id)
        mrel = rel_ci(m[1].result)
        # the sum of two times is known to no better than the worse of the two
        rel = None if rel is None or mrel is None else max(rel, mrel)
        detail += f" + {m[1].result.lib} {cand.mac}"
    return Rate(bps, "primitive", tuple(sorted(runs)), f"{detail} ({why})", stand_in=True,
                rel_ci=rel)


def rate_ssh(ev: Evidence, cand: Candidate, libs: list[str]) -> Rate | None:
    """Measured ssh transfer, else the primitive stand-in."""
    algo = cand.names["cipher"] + (f"+{cand.names['mac']}" if cand.names.get("mac") else "")
    r = ev.ssh.get(algo)
    if r is not None and ev.ssh_run is not None:
        return Rate(r.median, "ssh", (ev.ssh_run.id,),
                    f"ssh transfers of {format_bytes(r.size or 0)}, run {ev.ssh_run.id}",
                    rel_ci=rel_ci(r))
    # with --host and a primitive run of that host: its CPU's rates (the far end decides)
    src, where = (ev.on_host(), f" measured on {ev.host}") if ev.host_primitive else (ev, "")
    if not cand.available:
        return primitive_rate(src, cand, libs, f"primitive{where}: this ssh cannot use it")
    return primitive_rate(src, cand, libs, f"primitive stand-in{where}: no ssh measurement")


def rate_tls(ev: Evidence, cand: Candidate, lib: str) -> Rate | None:
    """Measured TLS record layer of ``lib``, else the primitive stand-in in ``lib``."""
    got = ev.tls.get((lib, cand.key))
    if got is not None:
        from cipherbench.advise.evidence import tls_bps
        r, run = got
        return Rate(tls_bps(r) or 0.0, "tls", (run.id,),
                    f"{lib} TLS record layer, {format_bytes(r.size or 0)} writes, "
                    f"run {run.id}",
                    rel_ci=rel_ci(r))
    # The same cipher and MAC under another key exchange has the same record layer (the
    # scenario measures RSA-certificate suites; the ECDSA twins differ only in the handshake).
    suite = cand.names["suite"]
    for (l, iana), (r, run) in sorted(ev.tls.items()):
        twin = suite_by_name(iana)
        if l == lib and twin is not None and (twin.cipher, twin.mac, twin.tls13) == \
                (suite.cipher, suite.mac, suite.tls13):
            from cipherbench.advise.evidence import tls_bps
            return Rate(tls_bps(r) or 0.0, "tls", (run.id,),
                        f"{lib} TLS record layer as {twin.openssl}, "
                        f"{format_bytes(r.size or 0)} writes, "
                        f"run {run.id}", rel_ci=rel_ci(r))
    return primitive_rate(ev, cand, [lib], "primitive stand-in for the TLS record layer")


def rate_gpg(ev: Evidence, cand: Candidate) -> Rate | None:
    """Measured gpg/age bulk rate, else libgcrypt's CFB primitive."""
    tool = "age" if cand.key == "age" else "gnupg"
    for row in ev.gpg_rows:
        if row.tool == tool and (tool == "age" or row.algo.upper() == cand.key):
            assert ev.gpg_run is not None
            return Rate(1.0 / row.per_byte_s, "gpg", (ev.gpg_run.id,),
                        f"{'age' if tool == 'age' else 'gpg --symmetric'} bulk rate, "
                        f"run {ev.gpg_run.id}", rel_ci=ev.gpg_ci.get((row.tool, row.algo)))
    if cand.key == "age":
        return None
    return primitive_rate(ev, cand, ["libgcrypt"], "primitive stand-in: no gpg measurement")


def rate_luks(ev: Evidence, cand: Candidate) -> Rate | None:
    """The cipher mode as a primitive (dm-crypt runs the kernel's implementation, which
    ``cryptsetup benchmark`` measures; this is the same mode in a user-space library)."""
    return primitive_rate(ev, cand, ["openssl", "libgcrypt"],
                          "user-space stand-in for the kernel's dm-crypt")


def rates_for(family: str, ev: Evidence, cands: list[Candidate], lib: str
              ) -> dict[str, Rate | None]:
    """Candidate key -> rate (None where nothing was measured)."""
    libs = [lib, "openssl"] if lib != "openssl" else ["openssl"]
    out: dict[str, Rate | None] = {}
    for c in cands:
        if family == "ssh":
            out[c.key] = rate_ssh(ev, c, libs)
        elif family == "tls":
            out[c.key] = rate_tls(ev, c, lib)
        elif family == "gpg":
            out[c.key] = rate_gpg(ev, c)
        else:
            out[c.key] = rate_luks(ev, c)
    return out


def uses_aes(algo: str) -> bool:
    """True for AES-based algorithms (fast only with AES instructions)."""
    return algo.startswith("aes-") or "-aes-" in algo


def without_aes(cands: list[Candidate], rates: dict[str, Rate | None]) -> dict[str, Rate | None]:
    """Rates as estimated for a CPU without AES instructions (see the module docstring)."""
    chacha: dict[str, float] = {}
    for c in cands:
        r = rates.get(c.key)
        if r is not None and c.cipher == "chacha20-poly1305":
            chacha[r.source] = max(chacha.get(r.source, 0.0), r.bps)
    out: dict[str, Rate | None] = {}
    for c in cands:
        r = rates.get(c.key)
        if r is None or not uses_aes(c.cipher):
            out[c.key] = r
            continue
        ref = chacha.get(r.source)
        est = min(r.bps / NO_AES_FACTOR, ref / NO_AES_FACTOR) if ref else r.bps / NO_AES_FACTOR
        out[c.key] = Rate(est, r.source, r.run_ids, f"{r.detail}; {NO_AES_SOURCE}",
                          stand_in=r.stand_in, estimated=True)
    return out
