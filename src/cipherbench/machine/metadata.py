# SPDX-License-Identifier: GPL-3.0-or-later
"""Machine metadata kept with every run, from one registry of keys.

``KEYS`` names every key with its type, unit and meaning; ``collect(...)`` reads the machine
(``/proc``, ``/sys``, ``platform``) and the core's ``preamble``/``library`` records and
returns a dict holding only registered keys. Reading the machine is kept in small functions
that take the file system root, so tests feed them fixture files; the root may also be the
texts of those files read on another host (``run --host``: ``host_machine``).
"""
from __future__ import annotations

import os
import platform
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Union

from cipherbench import __version__


@dataclass(frozen=True)
class Key:
    """One metadata key: its JSON type, unit ('' if none) and meaning."""

    name: str
    type: str
    unit: str
    meaning: str


_KEYS = [
    Key("cipherbench_version", "str", "", "version of the cipherbench front end"),
    Key("python", "str", "", "Python version running the front end"),
    Key("hostname", "str", "", "the machine's host name"),
    Key("machine_id", "str", "", "the machine's identity: a digest of /etc/machine-id (not the "
        "id itself); runs with another one come from another machine, whatever its host name"),
    Key("cpu_model", "str", "", "CPU model name (/proc/cpuinfo, or the core's preamble)"),
    Key("cpu_arch", "str", "", "machine architecture (x86_64, aarch64, ...)"),
    Key("cpu_flags", "list[str]", "", "crypto-relevant CPU features present (aes, pclmulqdq, "
        "avx2, avx512f, vaes, vpclmulqdq, sha_ni; ARM: aes, pmull, sha1, sha2)"),
    Key("cores", "int", "", "logical CPUs online"),
    Key("hypervisor", "str", "", "hypervisor vendor, or 'none' on bare metal"),
    Key("kernel", "str", "", "operating system kernel release"),
    Key("os", "str", "", "operating system (PRETTY_NAME of /etc/os-release)"),
    Key("governor", "str", "", "cpufreq scaling governor of CPU 0 ('' if none)"),
    Key("loadavg", "float", "", "1-minute load average when the run started"),
    Key("freq_hz", "float", "Hz", "core frequency measured by the core before the work"),
    Key("freq_end_hz", "float", "Hz", "core frequency measured by the core after the work"),
    Key("clock_trust", "dict", "", "the run's clock from every record's probes "
        "(clock.trust): trusted, freq_hz, the reason it is not trusted, spread"),
    Key("load_start", "dict", "", "other runnable tasks when the run started (load.snapshot): "
        "others, cpus, loadavg, autogroup, competitors (their names)"),
    Key("load_end", "dict", "", "the same when the run ended"),
    Key("cpu_share", "float", "", "CPU time of the run (its programs included) over its wall "
        "time: 1.0 = it never waited for a CPU"),
    Key("core_version", "str", "", "version of cipherbench-core"),
    Key("core_compiler", "str", "", "compiler that built cipherbench-core"),
    Key("core_cflags", "str", "", "compiler flags of cipherbench-core"),
    Key("clock", "str", "", "clock the core times with"),
    Key("libraries", "dict[str,dict]", "", "per library (or variant column, e.g. "
        "libgcrypt@1.11.0): the version the library reports at run time, capabilities "
        "(aes_hw, ...), the implementation it picked; a variant's `variant`: of, name, "
        "prefix, core (when built against the prefix), loaded (the file the loader mapped)"),
    Key("hw_disabled", "list[str]", "", "CPU features asked off in every library (--cpu-profile, "
        "--no-hw, --disable-cpu-feature: aes, pclmul, avx2, vaes, sha, avx512, avx, ssse3, bmi); "
        "[] when none"),
    Key("cpu_profile", "str", "", "the CPU profile the run stands for (no-aes, baseline; custom: "
        "a --disable-cpu-feature set); each library's switch and what it then reports it uses "
        "are under libraries.<lib>: hw_switch, hw_used"),
    Key("hw_pair", "int", "", "the run measured the other way (with or without the features "
        "of hw_disabled) by the same `run --hw-both`"),
    Key("threads", "int", "", "core processes measuring each point at once (--threads)"),
    Key("host", "str", "", "the host measured through ssh (`run --host`), as given: "
        "[USER@]HOST; absent when measured on this machine (the machine keys are the host's)"),
    Key("core_cpu_share", "float", "", "the share of a CPU the core processes got (their CPU "
        "time over their elapsed time, from the core's end records); with host, below 0.9 the "
        "host is throttled or busy and delivers that fraction of the rates per CPU second "
        "(`run --host` shows both, `advise --host` uses the delivered rates)"),
    Key("host_core", "str", "", "with host: the core run there, `installed at PATH` or "
        "`shipped` (this machine's, copied into a private directory for the run), or "
        "`shipped (ARCH cross build)` (build-ARCH/ of this checkout, to another architecture)"),
]
#: name -> Key. The one registry: ``collect`` emits only these keys.
KEYS: dict[str, Key] = {k.name: k for k in _KEYS}

#: CPU flags worth recording for crypto speed (x86 names from /proc/cpuinfo; ARM "Features").
CRYPTO_FLAGS = ("aes", "pclmulqdq", "ssse3", "avx", "avx2", "avx512f", "avx512vl", "vaes",
                "vpclmulqdq", "sha_ni", "bmi2", "adx", "pmull", "sha1", "sha2", "sha3",
                "sha512", "sm3", "sm4", "neon", "asimd")


#: Where the machine's files are read: a file system root, or their texts by path relative to
#: the root (``proc/cpuinfo``), as read on another host.
Root = Union[Path, Mapping[str, str]]


def _read(root: Root, rel: str) -> str:
    """The text of ``rel`` under ``root``; OSError when it cannot be read (or was not)."""
    if isinstance(root, Path):
        return (root / rel).read_text(errors="replace")
    if rel not in root:
        raise FileNotFoundError(rel)
    return root[rel]


def read_cpuinfo(root: Root = Path("/")) -> dict[str, Any]:
    """CPU model, crypto flags and whether the 'hypervisor' flag is set."""
    out: dict[str, Any] = {"cpu_model": "", "cpu_flags": [], "hv_flag": False}
    try:
        text = _read(root, "proc/cpuinfo")
    except OSError:
        return out
    flags: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip().lower()
        if key in ("model name", "hardware", "cpu model") and not out["cpu_model"]:
            out["cpu_model"] = value.strip()
        elif key in ("flags", "features") and not flags:
            flags = set(value.split())
    out["cpu_flags"] = [f for f in CRYPTO_FLAGS if f in flags]
    out["hv_flag"] = "hypervisor" in flags
    return out


def read_hypervisor(root: Root = Path("/"), hv_flag: bool = False) -> str:
    """Hypervisor vendor from /sys (Xen, KVM via DMI), 'unknown' if only the CPU flag says so,
    'none' otherwise."""
    try:
        t = _read(root, "sys/hypervisor/type").strip()
        if t:
            return t
    except OSError:
        pass
    for f in ("sys/class/dmi/id/sys_vendor", "sys/class/dmi/id/product_name"):
        try:
            v = _read(root, f).strip()
        except OSError:
            continue
        low = v.lower()
        for name in ("kvm", "qemu", "vmware", "virtualbox", "xen", "microsoft", "amazon ec2",
                     "google compute engine", "bochs", "parallels"):
            if name in low:
                return v
    return "unknown" if hv_flag else "none"


def read_governor(root: Root = Path("/")) -> str:
    """Scaling governor of CPU 0, '' when cpufreq is absent (typical inside VMs)."""
    try:
        return _read(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").strip()
    except OSError:
        return ""


def read_os_release(root: Root = Path("/"), system: str | None = None) -> str:
    """PRETTY_NAME from /etc/os-release, else ``system`` (default: this machine's, e.g.
    Linux)."""
    try:
        for line in _read(root, "etc/os-release").splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return system or platform.system()


def read_machine_id(root: Root = Path("/")) -> str:
    """A digest of /etc/machine-id ('' without one): one machine's identity, kept apart from
    its host name; the id itself is never stored (it is meant to stay private)."""
    import hashlib
    try:
        raw = _read(root, "etc/machine-id").strip()
    except OSError:
        return ""
    return hashlib.sha256(b"cipherbench machine " + raw.encode()).hexdigest()[:16] if raw else ""


#: The files ``host_machine`` reads, relative to the root (what a remote probe sends).
MACHINE_FILES = ("proc/cpuinfo", "proc/loadavg", "etc/os-release", "etc/machine-id",
                 "sys/hypervisor/type",
                 "sys/class/dmi/id/sys_vendor", "sys/class/dmi/id/product_name",
                 "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")


def host_machine(files: Mapping[str, str], *, hostname: str, arch: str, kernel: str,
                 system: str, cores: int) -> dict[str, Any]:
    """What ``machine`` says, for another host: from the texts of its ``MACHINE_FILES`` and
    what ``uname``, ``hostname`` and ``getconf`` said there. The front end's own keys
    (version, Python) stay this machine's: it is what ran there."""
    cpu = read_cpuinfo(files)
    try:
        load1: float | None = float(_read(files, "proc/loadavg").split()[0])
    except (OSError, ValueError, IndexError):
        load1 = None
    return {
        "cipherbench_version": __version__,
        "python": platform.python_version(),
        "hostname": hostname,
        "machine_id": read_machine_id(files),
        "cpu_model": cpu["cpu_model"],
        "cpu_arch": arch,
        "cpu_flags": cpu["cpu_flags"],
        "cores": cores,
        "hypervisor": read_hypervisor(files, cpu["hv_flag"]),
        "kernel": kernel,
        "os": read_os_release(files, system),
        "governor": read_governor(files),
        "loadavg": load1,
    }


def machine(root: Path = Path("/")) -> dict[str, Any]:
    """What the front end reads of the machine itself."""
    cpu = read_cpuinfo(root)
    try:
        load1 = os.getloadavg()[0]
    except OSError:
        load1 = None
    return {
        "cipherbench_version": __version__,
        "python": platform.python_version(),
        "hostname": socket.gethostname(),
        "machine_id": read_machine_id(root),
        "cpu_model": cpu["cpu_model"],
        "cpu_arch": platform.machine(),
        "cpu_flags": cpu["cpu_flags"],
        "cores": os.cpu_count() or 0,
        "hypervisor": read_hypervisor(root, cpu["hv_flag"]),
        "kernel": platform.release(),
        "os": read_os_release(root),
        "governor": read_governor(root),
        "loadavg": load1,
    }


def from_core(preamble: Mapping[str, Any] | None,
              libraries: Mapping[str, Mapping[str, Any]] | None) -> dict[str, Any]:
    """Keys taken from the core's preamble and library records."""
    out: dict[str, Any] = {}
    p = preamble or {}
    for src, dst in (("core_version", "core_version"), ("compiler", "core_compiler"),
                     ("cflags", "core_cflags"), ("freq_hz", "freq_hz"), ("clock", "clock")):
        if p.get(src) is not None:
            out[dst] = p[src]
    if p.get("cpu_model"):
        out["cpu_model_core"] = p["cpu_model"]
    if libraries:
        out["libraries"] = {
            name: {k: rec[k] for k in ("version", "caps", "provider", "hw_used", "hw_switch",
                                       "hw_off_requested", "hw_env", "variant")
                   if rec.get(k) is not None}
            for name, rec in libraries.items()}
    return out


def collect(preamble: Mapping[str, Any] | None = None,
            libraries: Mapping[str, Mapping[str, Any]] | None = None,
            root: Path = Path("/"), machine_keys: Mapping[str, Any] | None = None
            ) -> dict[str, Any]:
    """All registered metadata: the machine (``machine_keys`` when given, e.g. another host's
    from ``host_machine``; else this one's), then what the core reported (the core's CPU model
    is used when /proc gives none)."""
    meta = dict(machine_keys) if machine_keys is not None else machine(root)
    core = from_core(preamble, libraries)
    core_model = core.pop("cpu_model_core", "")
    meta.update(core)
    if not meta.get("cpu_model") and core_model:
        meta["cpu_model"] = core_model
    if not meta.get("cpu_flags") and preamble and preamble.get("cpu_flags"):
        meta["cpu_flags"] = list(preamble["cpu_flags"])
    return {k: v for k, v in meta.items() if k in KEYS}
