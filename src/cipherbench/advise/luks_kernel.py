# SPDX-License-Identifier: GPL-3.0-or-later
"""Each LUKS candidate rated by the implementation dm-crypt would run: the kernel's
highest-priority driver of the cipher spec's algorithm (``kernel_crypto.resolve`` over
``/proc/crypto``), stood in for by the user-space code of the same kind:

- a driver using the CPU's AES instructions (``xts-aes-aesni``, ``xts-aes-ce``): OpenSSL's
  rate of the same mode, which uses them too;
- a generic or vector driver without AES instructions (``aes-generic``, ``aes-fixed-time``,
  ``xts-aes-neonbs``): libtomcrypt's rate of the same mode, portable C without AES
  instructions or vector code (the kernel's vector code may be faster: then it is a floor);
- Adiantum (``xchacha12,aes-adiantum-plain64``, the answer on CPUs without AES instructions):
  an estimate from the ChaCha20 rate of the library of the same kind (``ADIANTUM_SOURCE``).

Each rate's detail names the kernel driver it stands for. ``warning`` says when the CPU has
AES instructions and the kernel's ``xts(aes)`` does not use them. Pure over its inputs
(``KernelView`` holds what was read).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from cipherbench.machine import kernel_crypto as K
from cipherbench.advise.evidence import Evidence, Rate, rel_ci
from cipherbench.scenarios.luks.specs import ADIANTUM_SPEC
from cipherbench.units import format_bytes

#: Portable C only: its AES and ChaCha use no AES instructions and no vector code (the core
#: reports no hardware capability for it).
GENERIC_LIB = "libtomcrypt"
#: OpenSSH's and most programs' library; its AES uses the AES instructions where the CPU has
#: them, as the kernel's hardware drivers do.
FAST_LIB = "openssl"
#: What the ratings need measured, per library.
NEEDS = {GENERIC_LIB: ("aes-128-xts", "aes-256-xts", "aes-128-cbc", "aes-256-cbc", "chacha20"),
         FAST_LIB: ("chacha20",)}

#: XChaCha12 does 12 of ChaCha20's 20 rounds; NH and Poly1305 hash every byte besides.
ADIANTUM_ROUNDS = 12 / 20
ADIANTUM_HASH = 1.2
ADIANTUM_SOURCE = ("estimate: ChaCha20's rate scaled to XChaCha12's 12 of 20 rounds, less a "
                   "sixth for the NH and Poly1305 hashing (Crowley and Biggers, Adiantum, "
                   "IACR ToSC 2018(4): XChaCha12 is most of its cost)")
#: Where the drivers are read from; the variable names another machine's stored text.
PROC_ENV = "CIPHERBENCH_PROC_CRYPTO"


@dataclass(frozen=True)
class KernelView:
    """What was read: the drivers (None: no ``/proc/crypto``), from where, and whether the
    CPU has AES instructions (None: not known)."""

    drivers: list[K.Driver] | None
    source: str
    cpu_aes: bool | None

    def implementation(self, spec: str) -> K.Implementation | None:
        """The kernel's implementation of a cryptsetup cipher spec (None: nothing read)."""
        return None if self.drivers is None else K.resolve(self.drivers, K.kernel_name(spec))


def read_view(env: Mapping[str, str], cpu_flags: list[str] | None) -> KernelView:
    """This machine's ``/proc/crypto`` (or the file ``$CIPHERBENCH_PROC_CRYPTO`` names) and the
    CPU's AES instructions from the evidence's CPU flags (else ``/proc/cpuinfo``)."""
    path = Path(env.get(PROC_ENV) or K.PROC_CRYPTO)
    drivers = K.read(path)
    aes: bool | None   # None: the CPU's flags could not be read
    if cpu_flags is not None:
        aes = "aes" in cpu_flags
    else:
        try:
            aes = K.cpu_has_aes(Path("/proc/cpuinfo").read_text())
        except OSError:
            aes = None
    return KernelView(drivers, str(path), aes)


def _primitive(ev: Evidence, algo: str, lib: str) -> tuple[float, float | None, str, int] | None:
    got = ev.primitive_bps(algo, [lib])
    if got is None:
        return None
    bps, p = got
    return bps, rel_ci(p.result), f"{lib} {algo} at {format_bytes(p.result.size or 0)}", p.run.id


def _lib_for(kind: str | None) -> str:
    return FAST_LIB if kind == K.HARDWARE else GENERIC_LIB


def rate(ev: Evidence, cand, impl: K.Implementation | None,
         assume_no_aes: bool = False) -> Rate | None:
    """One candidate's rate as the kernel's implementation would run it (see the module); a
    dm-crypt run (``advise --kernel``) measured the kernel itself."""
    spec = cand.names["cryptsetup"]
    measured = ev.luks.get(cand.key)
    if measured is not None and ev.luks_run is not None and not assume_no_aes:
        return Rate(measured.median, "dm-crypt", (ev.luks_run.id,),
                    f"the kernel's dm-crypt over a RAM-backed device, run {ev.luks_run.id}"
                    + (f" ({measured.extra['driver']})" if measured.extra.get("driver") else ""),
                    rel_ci=rel_ci(measured))
    if impl is None:
        # nothing read: the user-space mode stands in, as before
        got = _primitive(ev, cand.cipher, FAST_LIB) or _primitive(ev, cand.cipher, "libgcrypt")
        if got is None:
            return None
        bps, rel, detail, run = got
        return Rate(bps, "primitive", (run,), f"{detail} (user-space stand-in; the kernel's "
                    "drivers could not be read)", stand_in=True, rel_ci=rel)
    kind = impl.kind
    if assume_no_aes and kind == K.HARDWARE:
        kind = K.GENERIC
    if spec == ADIANTUM_SPEC:
        stream = impl.parts[0] if impl.parts else None
        skind = stream.kind if stream is not None and stream.driver else K.VECTOR
        lib = GENERIC_LIB if skind == K.GENERIC else FAST_LIB
        got = _primitive(ev, "chacha20", lib)
        if got is None:
            return None
        bps, _, detail, run = got
        est = bps / ADIANTUM_ROUNDS / ADIANTUM_HASH
        return Rate(est, "primitive", (run,), f"{detail}, as the kernel's {impl.text()}; "
                    f"{ADIANTUM_SOURCE}", stand_in=True, estimated=True)
    lib = _lib_for(kind) if cand.cipher.startswith("aes-") else "libgcrypt"
    got = _primitive(ev, cand.cipher, lib)
    if got is None and lib == "libgcrypt":
        got = _primitive(ev, cand.cipher, FAST_LIB)
    if got is None:
        return None
    bps, rel, detail, run = got
    floor = "; the kernel's vector code may be faster" if kind == K.VECTOR else ""
    no_aes = "; --assume-no-aes: as a kernel without AES instructions" \
        if assume_no_aes and impl.kind == K.HARDWARE else ""
    return Rate(bps, "primitive", (run,), f"{detail}, as the kernel's {impl.text()}"
                f"{floor}{no_aes}", stand_in=True, rel_ci=rel)


def rates(ev: Evidence, cands: list, view: KernelView, assume_no_aes: bool = False
          ) -> tuple[dict[str, Rate | None], list[str]]:
    """Candidate key -> rate, and the notes the answer carries (what was read, the warning)."""
    out = {c.key: rate(ev, c, view.implementation(c.names["cryptsetup"]), assume_no_aes)
           for c in cands}
    notes = []
    if view.drivers is None:
        notes.append(f"the kernel's crypto drivers could not be read ({view.source}): "
                     "user-space rates of the same modes stand in")
        return out, notes
    xts = view.implementation("aes-xts-plain64")
    assert xts is not None
    notes.append(f"dm-crypt runs the kernel's implementation, read from {view.source}: "
                 f"xts(aes) is {xts.text()}; each rate is the user-space code of the same "
                 f"kind ({FAST_LIB} for AES instructions, {GENERIC_LIB}'s portable C for "
                 "generic code)")
    if ev.luks_run is not None and not assume_no_aes:
        notes.insert(0, f"measured: the kernel's dm-crypt itself, run {ev.luks_run.id} "
                        "(advise --kernel, cipherbench luks); a spec it did not measure is "
                        "rated as below")
    warn = warning(view)
    if warn:
        notes.insert(0, warn)
    missing = sorted({lib for lib, algos in NEEDS.items()
                      for a in algos if ev.primitive_bps(a, [lib]) is None})
    if missing and any(r is None for r in out.values()):
        notes.append("not measured: run `cipherbench run --lib " + ",".join(missing)
                     + " --algo " + ",".join(sorted({a for l in missing for a in NEEDS[l]}))
                     + "` (or advise without --no-measure)")
    return out, notes


def warning(view: KernelView) -> str | None:
    """The CPU has AES instructions and the kernel's ``xts(aes)`` does not use them."""
    xts = view.implementation("aes-xts-plain64")
    if not view.cpu_aes or xts is None or xts.kind == K.HARDWARE:
        return None
    return (f"warning: this CPU has AES instructions, but the kernel's xts(aes) is "
            f"{xts.text()}: dm-crypt would not use them. Load the kernel's driver that does "
            "(x86: modprobe aesni_intel; ARM64: modprobe aes_ce_blk), or use a kernel built "
            "with it, and advise again.")
