# SPDX-License-Identifier: GPL-3.0-or-later
"""Library variants: a second build of a library, measured beside the system's as its own column.

A variant is named on ``--lib`` as ``LIB@PREFIX`` (a directory an installed build of LIB lives
in, with its shared library under ``PREFIX/lib``) or ``LIB@NAME`` (an entry of the variants
file). Two ways to load it:

- same soname and ABI as the library the core was built against: the core runs with the
  prefix's library directories first on ``LD_LIBRARY_PATH`` (for that core process only), so
  the loader takes the prefix's build;
- another soname or ABI: ``cipherbench core build --variant NAME --prefix P`` builds a core
  against the prefix's pkg-config files (``variant_build``) and records it in the variants
  file; that core is then started instead.

Either way the library's own run-time version names the column (``libgcrypt@1.11.0``), and
the loader's resolution of the core's module of that library (``core/module.h``; what ``ldd``
prints for the module file the core's ``list`` names) shows which file it really loads: a variant whose library still comes from elsewhere is refused with
the path it would have measured, and a loader error is the loader's own line.

The variants file is TOML, ``$CIPHERBENCH_VARIANTS``, else
``$XDG_CONFIG_HOME/cipherbench/variants.toml``, else ``~/.config/cipherbench/variants.toml``::

    gcry111 = {lib = "libgcrypt", prefix = "/opt/libgcrypt-1.11"}
    nettle310 = {lib = "nettle", prefix = "/opt/nettle-3.10", core = "/home/u/.cache/..."}

Public API: ``Variant``, ``parse_spec``, ``variants_file``, ``load``, ``save``, ``resolve``,
``loader_view``, ``check_loaded``, ``column_label``, ``library_files``.
"""
from __future__ import annotations

import os
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import platformdirs

from cipherbench.errors import EnvironmentProblem, UsageError

@dataclass(frozen=True)
class LibFiles:
    """A backend's pkg-config names (as core/meson.build looks them up) and the beginnings of
    its shared library's file names (``libcrypto.so.3`` begins with ``libcrypto``)."""

    pkgconfig: tuple[str, ...]
    stems: tuple[str, ...]


#: Per backend library of the C core.
LIBRARY_FILES: dict[str, LibFiles] = {
    "openssl": LibFiles(("libcrypto",), ("libcrypto",)),
    "libgcrypt": LibFiles(("libgcrypt",), ("libgcrypt",)),
    "nettle": LibFiles(("nettle",), ("libnettle",)),
    "gnutls": LibFiles(("gnutls",), ("libgnutls",)),
    "libsodium": LibFiles(("libsodium",), ("libsodium",)),
    "cryptopp": LibFiles(("libcrypto++",), ("libcrypto++", "libcryptopp")),
    "wolfssl": LibFiles(("wolfssl",), ("libwolfssl",)),
    "libtomcrypt": LibFiles(("libtomcrypt",), ("libtomcrypt",)),
    "mbedtls": LibFiles(("mbedcrypto",), ("libmbedcrypto",)),
    "botan": LibFiles(("botan-3", "botan-2"), ("libbotan-3", "libbotan-2")),
}
#: Where an installed build keeps its shared libraries, under its prefix.
LIB_SUBDIRS = ("lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu")
#: A variant name in the file: also what goes after ``@`` on --lib.
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_VERSION_RE = re.compile(r"\d+(?:\.\d+)+[a-z]?")
_SONAME_RE = re.compile(r"\.so\.\d+$")


@dataclass(frozen=True)
class Variant:
    """A second build of ``lib``: installed under ``prefix``, measured by the system's core
    with the prefix first on the loader path, or by ``core`` (built against the prefix)."""

    name: str             # the variants file's NAME, or the prefix as given on --lib
    lib: str              # the library it is a build of (libgcrypt)
    prefix: Path
    core: Path | None = None

    @property
    def spec(self) -> str:
        """What --lib names it by: ``libgcrypt@gcry111``."""
        return f"{self.lib}@{self.name}"

    def lib_dirs(self) -> list[Path]:
        """The prefix's directories holding shared libraries, ``lib`` first."""
        return [self.prefix / d for d in LIB_SUBDIRS if (self.prefix / d).is_dir()]

    def env(self, base: Mapping[str, str]) -> dict[str, str]:
        """``base`` with the prefix's library directories first on ``LD_LIBRARY_PATH``."""
        env = dict(base)
        old = [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]
        env["LD_LIBRARY_PATH"] = ":".join([str(d) for d in self.lib_dirs()] + old)
        return env

    def to_record(self) -> dict[str, str]:
        """What the run's metadata keeps of it (``libraries.<column>.variant``)."""
        out = {"of": self.lib, "name": self.name, "prefix": str(self.prefix)}
        if self.core is not None:
            out["core"] = str(self.core)
        return out


def parse_spec(text: str) -> tuple[str, str] | None:
    """``libgcrypt@/opt/x`` -> ``("libgcrypt", "/opt/x")``; None for a plain library name."""
    if "@" not in text:
        return None
    lib, _, where = text.partition("@")
    if not lib or not where:
        raise UsageError(f"--lib {text!r}: a variant is LIB@PREFIX (a directory) or LIB@NAME "
                         "(from the variants file), e.g. libgcrypt@/opt/libgcrypt-1.11")
    return lib, where


def _is_path(where: str) -> bool:
    return "/" in where or where.startswith(("~", "."))


def variants_file(env: Mapping[str, str]) -> Path:
    """``$CIPHERBENCH_VARIANTS``, else ``$XDG_CONFIG_HOME/cipherbench/variants.toml``, else
    the platform's user config directory."""
    if env.get("CIPHERBENCH_VARIANTS"):
        return Path(env["CIPHERBENCH_VARIANTS"])
    if env.get("XDG_CONFIG_HOME"):
        return Path(env["XDG_CONFIG_HOME"]) / "cipherbench" / "variants.toml"
    return platformdirs.user_config_path("cipherbench") / "variants.toml"


def load(path: Path) -> dict[str, Variant]:
    """Every variant of the file (none when it does not exist); one-line errors for a file
    that is not TOML or an entry without ``lib`` and ``prefix``."""
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise EnvironmentProblem(f"cannot read the variants file {path}: {e}")
    except tomllib.TOMLDecodeError as e:
        raise EnvironmentProblem(f"the variants file {path} is not TOML: {e}")
    out: dict[str, Variant] = {}
    for name, entry in data.items():
        if not (isinstance(entry, dict) and isinstance(entry.get("lib"), str)
                and isinstance(entry.get("prefix"), str)):
            raise EnvironmentProblem(f"the variants file {path}: entry {name!r} needs lib and "
                                     f"prefix, e.g. {name} = {{lib = \"libgcrypt\", prefix = "
                                     "\"/opt/libgcrypt-1.11\"}")
        core = entry.get("core")
        out[name] = Variant(name, entry["lib"], Path(entry["prefix"]),
                            Path(core) if isinstance(core, str) and core else None)
    return out


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def save(path: Path, variant: Variant) -> None:
    """Add or replace ``variant`` in the file (the file is rewritten from its entries)."""
    entries = load(path)
    entries[variant.name] = variant
    lines = ["# cipherbench library variants: NAME = {lib, prefix[, core]}; "
             "measured with `cipherbench run --lib LIB@NAME`"]
    for v in entries.values():
        fields = [f"lib = {_toml_str(v.lib)}", f"prefix = {_toml_str(str(v.prefix))}"]
        if v.core is not None:
            fields.append(f"core = {_toml_str(str(v.core))}")
        lines.append(f"{v.name} = {{{', '.join(fields)}}}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(path)


def resolve(text: str, env: Mapping[str, str], libs: list[str]) -> Variant:
    """The variant ``LIB@PREFIX`` or ``LIB@NAME`` names; ``libs`` are the libraries the
    cores measure. UsageError when it names nothing usable."""
    parsed = parse_spec(text)
    assert parsed is not None
    lib, where = parsed
    if lib not in libs:
        from cipherbench.suggest import did_you_mean
        raise UsageError(f"--lib {text}: unknown library {lib!r}{did_you_mean(lib, libs)}; "
                         f"this build has: {', '.join(libs) or 'none'}")
    if _is_path(where):
        v = Variant(where, lib, Path(os.path.expanduser(where)).resolve())
    else:
        path = variants_file(env)
        known = load(path)
        if where not in known:
            raise UsageError(f"--lib {text}: no variant {where!r} in {path} (add "
                             f"`{where} = {{lib = \"{lib}\", prefix = \"/opt/...\"}}` there, "
                             f"or name the prefix: {lib}@/opt/...)")
        v = known[where]
        if v.lib != lib:
            raise UsageError(f"--lib {text}: variant {where!r} is a build of {v.lib}, not "
                             f"{lib}: use {v.lib}@{where}")
    if not v.prefix.is_dir():
        raise UsageError(f"--lib {text}: {v.prefix} is not a directory (the prefix an "
                         f"installed build of {lib} lives in)")
    if v.core is None and not v.lib_dirs():
        raise UsageError(f"--lib {text}: {v.prefix} has no lib/ directory with shared "
                         "libraries")
    if v.core is not None and not (v.core.is_file() and os.access(v.core, os.X_OK)):
        raise EnvironmentProblem(f"--lib {text}: its core {v.core} is gone: build it again "
                                 f"with `cipherbench core build --variant {v.name} --prefix "
                                 f"{v.prefix} --lib {v.lib}`")
    return v


def library_files(lib: str, dirs: list[Path]) -> list[Path]:
    """The shared library files of ``lib`` in ``dirs`` (``libnettle.so.8``, ...)."""
    stems = LIBRARY_FILES.get(lib, LibFiles((), (lib,))).stems
    out = []
    for d in dirs:
        for f in sorted(d.glob("*.so*")):
            if any(f.name.startswith(s + ".so") for s in stems):
                out.append(f)
    return out


@dataclass(frozen=True)
class LoaderView:
    """What the loader resolves for a core: soname -> file (``""``: not found), or its error."""

    objects: dict[str, str]
    error: str = ""


def module_file(core: Path, env: Mapping[str, str], lib: str) -> Path | None:
    """The file of ``lib``'s module that ``core`` reads under ``env`` (its ``list`` says which,
    loaded or not), or None when it has none."""
    from cipherbench.cores.core_client import Core   # (core_client imports this module)
    for m in Core(core, env).list().modules:
        if m.lib == lib and m.path:
            return Path(m.path)
    return None


def loader_view(core: Path, env: Mapping[str, str], lib: str) -> LoaderView:
    """The loader's resolution of ``core``'s module of ``lib`` under ``env`` (``ldd`` of the
    module file): every shared object the loader would map for it, or its own line saying
    why it cannot."""
    try:
        module = module_file(core, env, lib)
    except (EnvironmentProblem, UsageError) as e:
        return LoaderView({}, f"cannot ask {core} for its {lib} module: {e}")
    if module is None:
        return LoaderView({}, f"{core} has no {lib} module")
    try:
        cp = subprocess.run(["ldd", str(module)], env=dict(env), stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return LoaderView({}, f"cannot ask the loader about {module}: {e}")
    objects: dict[str, str] = {}
    for line in cp.stdout.splitlines():
        name, arrow, rest = line.strip().partition(" => ")
        if arrow:
            objects[name] = "" if rest.startswith("not found") else rest.split(" (")[0]
    # (ldd writes the loader's own line on stdout or stderr, depending on the release)
    err = [x for x in (cp.stderr + cp.stdout).strip().splitlines() if " => " not in x]
    return LoaderView(objects, err[-1].strip() if cp.returncode != 0 and err else "")


def loaded_file(lib: str, view: LoaderView) -> tuple[str, str] | None:
    """(soname, file) of ``lib``'s shared library in the loader's view, or None."""
    stems = LIBRARY_FILES.get(lib, LibFiles((), (lib,))).stems
    for soname, path in view.objects.items():
        if any(soname.startswith(s + ".so") for s in stems):
            return soname, path
    return None


def check_loaded(v: Variant, view: LoaderView) -> str:
    """The file the variant's core loads ``v.lib`` from; EnvironmentProblem when the loader
    fails (its own line) or takes the library from outside the prefix."""
    found = loaded_file(v.lib, view)
    if found is not None and not found[1]:
        raise EnvironmentProblem(f"{v.spec}: the loader cannot find {found[0]} (not in "
                                 f"{', '.join(map(str, v.lib_dirs())) or v.prefix} nor the "
                                 "system's directories)")
    if view.error:
        raise EnvironmentProblem(f"{v.spec}: {view.error}")
    if found is None:
        raise EnvironmentProblem(f"{v.spec}: the core does not load a {v.lib} shared library "
                                 "(built without it, or linked statically)")
    soname, path = found
    real = Path(path).resolve()
    if not any(_inside(real, d.resolve()) for d in v.lib_dirs() or [v.prefix]):
        theirs = sorted({f.name for f in library_files(v.lib, v.lib_dirs())
                         if _SONAME_RE.search(f.name)})
        why = ("" if soname in theirs else
               f"{v.prefix} has {', '.join(theirs)}, another soname than the core's {soname}"
               if theirs else f"{v.prefix} has no {soname}")
        raise EnvironmentProblem(
            f"{v.spec}: the core still loads {path}, not the prefix's {v.lib}"
            + (f" ({why})" if why else "")
            + f": build a core against it with `cipherbench core build --variant NAME "
              f"--prefix {v.prefix} --lib {v.lib}`, then use {v.lib}@NAME")
    return path


def _inside(p: Path, d: Path) -> bool:
    try:
        p.relative_to(d)
    except ValueError:
        return False
    return True


def short_version(version: str) -> str:
    """``OpenSSL 3.0.19 27 Jan 2026`` -> ``3.0.19``; ``1.11.0`` stays."""
    m = _VERSION_RE.search(version or "")
    return m.group(0) if m else (version or "").strip()


def column_label(v: Variant, version: str, taken: set[str]) -> str:
    """The column of a variant: ``lib@VERSION`` (the version the library reports at run
    time), else ``lib@NAME`` when that column is taken (a second build of the same version,
    or the same version as the system's)."""
    for cand in (f"{v.lib}@{short_version(version)}" if short_version(version) else "",
                 f"{v.lib}@{v.name if not _is_path(v.name) else v.prefix.name}"):
        if cand and cand not in taken:
            return cand
    n = 2
    while f"{v.lib}@{v.prefix.name}-{n}" in taken:
        n += 1
    return f"{v.lib}@{v.prefix.name}-{n}"
