# SPDX-License-Identifier: GPL-3.0-or-later
"""The kernel's crypto drivers, from ``/proc/crypto``: which implementation dm-crypt would get
for an algorithm such as ``xts(aes)``, ``essiv(cbc(aes),sha256)`` or
``adiantum(xchacha12,aes)``, and what kind of code it is. Pure: text in, records out.

The kernel's crypto API gives a user (dm-crypt among them) the registered driver of the
requested name with the highest priority, skipping internal ones. A template instance that
nobody asked for yet (``xts(aes)`` before the first mapping) is not listed: the kernel builds
it on demand from the template over the highest-priority drivers of its parts (``xts`` over
``ecb(aes)`` or the ``aes`` cipher). So ``resolve`` takes a listed driver when there is one,
else builds the name the same way, from the parts that are listed; a part listed nowhere is
not loaded (its module may still load on demand).

``kind_of(driver)`` tells the code apart: ``HARDWARE`` (AES instructions: AES-NI, VAES, the
ARMv8 Crypto Extensions, ...), ``VECTOR`` (SIMD without AES instructions: bit-sliced NEON,
AVX2 ChaCha), ``GENERIC`` (portable C or scalar code).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

PROC_CRYPTO = Path("/proc/crypto")

HARDWARE, VECTOR, GENERIC = "hardware", "vector", "generic"

#: Driver-name marks of code using the CPU's AES instructions, per architecture.
_HARDWARE = re.compile(r"aesni|aes-ni|vaes|(^|[-_(,])ce($|[-_),])|-ce\b|aes-ce|s390|p8_aes|"
                       r"zvkned|aes-ppc|aes-padlock|aes-sparc64")
#: Marks of vector code without AES instructions.
_VECTOR = re.compile(r"neon|simd|avx|sse|ssse3|altivec|-vec\b|bs\b|neonbs")
#: Marks of portable or scalar code (checked first).
_GENERIC = re.compile(r"generic|fixed-time|aes-arm64$|aes-arm$|aes-asm|aes-x86_64|aes-586")


@dataclass(frozen=True)
class Driver:
    """One block of ``/proc/crypto``."""

    name: str
    driver: str
    module: str = ""
    priority: int = 0
    type: str = ""
    internal: bool = False
    selftest: str = ""
    fields: tuple[tuple[str, str], ...] = ()


def parse(text: str) -> list[Driver]:
    """Every block of a ``/proc/crypto`` text (blank-line separated ``key : value`` lines);
    a block without a name or driver is skipped."""
    out = []
    for chunk in re.split(r"\n\s*\n", text):
        kv: dict[str, str] = {}
        for line in chunk.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                kv[key.strip()] = value.strip()
        if not kv.get("name") or not kv.get("driver"):
            continue
        try:
            prio = int(kv.get("priority", "0"))
        except ValueError:
            prio = 0
        out.append(Driver(kv["name"], kv["driver"], kv.get("module", ""), prio,
                          kv.get("type", ""), kv.get("internal", "no") == "yes",
                          kv.get("selftest", ""), tuple(kv.items())))
    return out


def read(path: Path = PROC_CRYPTO) -> list[Driver] | None:
    """This machine's drivers; None where ``/proc/crypto`` cannot be read (not Linux)."""
    try:
        return parse(path.read_text())
    except OSError:
        return None


#: Template names inside a composed driver (not code of their own).
_TEMPLATES = {"xts", "cbc", "ecb", "ctr", "lrw", "essiv", "adiantum", "hctr2", "cts"}


def bulk_part(driver: str) -> str:
    """The driver that does the bulk of a composed one: ``xts(ecb(aes-fixed-time))`` ->
    ``aes-fixed-time``; ``essiv(cbc(aes-generic),sha256-lib)`` -> ``aes-generic``;
    ``adiantum(xchacha12-neon,aes-arm64,nhpoly1305-neon)`` -> ``xchacha12-neon`` (the stream
    cipher: the AES block cipher encrypts one block per sector)."""
    parts = [p for p in re.split(r"[(),]", driver) if p and p not in _TEMPLATES]
    return parts[0] if parts else driver


def kind_of(driver: str) -> str:
    """``HARDWARE``, ``VECTOR`` or ``GENERIC`` for a driver name, a composed one judged by
    its ``bulk_part``."""
    d = bulk_part(driver.lower())
    if _HARDWARE.search(d):
        return HARDWARE
    if _GENERIC.search(d) and not _VECTOR.search(d):
        return GENERIC
    if _VECTOR.search(d):
        return VECTOR
    return GENERIC


@dataclass(frozen=True)
class Implementation:
    """What the kernel would give for ``name``: the ``driver`` (None: a part is not loaded),
    whether it is listed already or built on demand from the listed parts, and its kind."""

    name: str
    driver: str | None
    priority: int = 0
    module: str = ""
    listed: bool = True
    missing: tuple[str, ...] = ()
    parts: tuple["Implementation", ...] = field(default=(), compare=False)

    @property
    def kind(self) -> str | None:
        return kind_of(self.driver) if self.driver else None

    def text(self) -> str:
        """How the answer names it: ``xts-aes-aesni (AES instructions)``."""
        if self.driver is None:
            return (f"{self.name}: not loaded ({', '.join(self.missing)} not listed in "
                    "/proc/crypto; the kernel may load a module for it on demand)")
        how = {HARDWARE: "AES instructions", VECTOR: "vector code without AES instructions",
               GENERIC: "generic code"}[self.kind or GENERIC]
        built = "" if self.listed else ", built on demand"
        return f"{self.driver} ({how}{built})"


def _args(inner: str) -> list[str]:
    """Top-level comma-separated arguments of a template (``cbc(aes),sha256``)."""
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    return out + [cur] if cur else out


def best(drivers: list[Driver], name: str) -> Driver | None:
    """The listed driver of ``name`` the kernel hands out: highest priority, not internal,
    its self-test not failed."""
    ok = [d for d in drivers if d.name == name and not d.internal
          and d.selftest not in ("failed", "unknown")]
    return max(ok, key=lambda d: d.priority, default=None)


def resolve(drivers: list[Driver], name: str) -> Implementation:
    """The implementation dm-crypt would get for ``name`` (see the module)."""
    d = best(drivers, name)
    if d is not None:
        return Implementation(name, d.driver, d.priority, d.module)
    m = re.fullmatch(r"([\w-]+)\((.*)\)", name)
    if not m:
        return Implementation(name, None, listed=False, missing=(name,))
    template, args = m.group(1), _args(m.group(2))
    if template in ("xts", "cbc", "ecb", "ctr", "lrw") and len(args) == 1 \
            and "(" not in args[0] and template != "ecb":
        # the mode over the ecb() of the cipher when listed, else over the bare cipher
        inner = best(drivers, f"ecb({args[0]})")
        parts = [Implementation(f"ecb({args[0]})", inner.driver, inner.priority, inner.module)
                 if inner is not None else resolve(drivers, args[0])]
    elif template == "adiantum":
        # adiantum(stream,block) hashes with nhpoly1305 as well
        parts = [resolve(drivers, a) for a in args] + [resolve(drivers, "nhpoly1305")]
    else:
        parts = [resolve(drivers, a) for a in args]
    missing = tuple(x for p in parts for x in (p.missing or ()))
    if missing:
        return Implementation(name, None, listed=False, missing=missing, parts=tuple(parts))
    if template == "ecb" and parts[0].driver:
        driver = f"ecb({parts[0].driver})"
    else:
        driver = f"{template}({','.join(p.driver or '' for p in parts)})"
    return Implementation(name, driver, 0, "", listed=False, parts=tuple(parts))


#: cryptsetup's ``--cipher`` specs as the kernel's algorithm names (dm-crypt's mapping:
#: ``cipher-mode-iv``; ESSIV wraps the mode, Adiantum names its two ciphers).
def kernel_name(spec: str) -> str:
    """``aes-xts-plain64`` -> ``xts(aes)``; ``aes-cbc-essiv:sha256`` ->
    ``essiv(cbc(aes),sha256)``; ``xchacha12,aes-adiantum-plain64`` ->
    ``adiantum(xchacha12,aes)``."""
    head, _, iv = spec.rpartition("-")
    cipher, _, mode = head.rpartition("-")
    if mode == "adiantum":
        return f"adiantum({cipher})"
    if iv.startswith("essiv:"):
        return f"essiv({mode}({cipher}),{iv.split(':', 1)[1]})"
    return f"{mode}({cipher})"


def cpu_has_aes(cpuinfo: str) -> bool | None:
    """Whether ``/proc/cpuinfo`` text lists AES instructions (x86 ``flags``, ARM
    ``Features``); None when it lists neither."""
    seen = False
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() in ("flags", "features"):
            seen = True
            if "aes" in value.split():
                return True
    return False if seen else None
