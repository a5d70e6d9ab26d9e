# SPDX-License-Identifier: GPL-3.0-or-later
"""Building a core against a library variant whose soname or ABI differs from the system's.

``build(...)`` configures the source tree's Meson build in a directory of the user's cache
(``$XDG_CACHE_HOME/cipherbench/variants/NAME``) with ``PKG_CONFIG_PATH`` on the prefix's
pkg-config files, only that library's backend (every other one ``disabled``), and an rpath to
the prefix's lib directories; compiles the core; checks that the loader maps the prefix's
library and reads the version the library reports. The caller records it in the variants
file (``variants.save``). Meson's output goes to ``build.log`` beside the build directory;
a failure is one line (Meson's own ``ERROR:`` line) naming that log.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

import platformdirs

from cipherbench.cores import variants
from cipherbench.cores.core_client import CORE_NAME, SOURCE_TREE, Core, CoreCrashed, CoreUsage
from cipherbench.errors import EnvironmentProblem, UsageError


@dataclass(frozen=True)
class Built:
    """A variant core that built and loads the prefix's library."""

    variant: variants.Variant
    version: str       # what the library reports at run time
    loaded: str        # the file the loader maps
    log: Path


def cache_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_CACHE_HOME/cipherbench``, else the platform's user cache directory."""
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]) / "cipherbench"
    return platformdirs.user_cache_path("cipherbench")


def pkgconfig_dirs(prefix: Path) -> list[Path]:
    """The prefix's directories of pkg-config files."""
    v = variants.Variant("", "", prefix)
    dirs = [d / "pkgconfig" for d in v.lib_dirs()] + [prefix / "share" / "pkgconfig"]
    return [d for d in dirs if d.is_dir()]


def guess_lib(prefix: Path) -> str:
    """The one backend library whose pkg-config file the prefix has (UsageError otherwise)."""
    names = {f.stem for d in pkgconfig_dirs(prefix) for f in d.glob("*.pc")}
    found = [lib for lib, files in variants.LIBRARY_FILES.items()
             if any(pc in names for pc in files.pkgconfig)]
    if len(found) != 1:
        what = f"has pkg-config files of {', '.join(found)}" if found else \
            "has no pkg-config file of a library cipherbench measures"
        raise UsageError(f"--prefix {prefix} {what}: name the library with --lib "
                         f"({', '.join(variants.LIBRARY_FILES)})")
    return found[0]


def _meson_error(log: Path) -> str:
    """Meson's own ``ERROR:`` line of a failed step (else the log's last line)."""
    try:
        lines = [l.strip() for l in log.read_text(errors="replace").splitlines() if l.strip()]
    except OSError:
        return "no log"
    errors = [l for l in lines if "ERROR:" in l or "error:" in l]
    return (errors or lines or ["no output"])[0 if errors else -1]


def source_checkout() -> Path:
    """cipherbench's source tree: the one this module runs from, else the checkout that holds
    the virtual environment it is installed in (``scripts/setup.sh`` makes ``.venv`` in the
    checkout and installs cipherbench into it). The first with the Meson files; else the
    first, which the caller then reports as missing."""
    found = [SOURCE_TREE]
    if sys.prefix != sys.base_prefix:
        found.append(Path(sys.prefix).parent)
    for tree in found:
        if (tree / "meson.build").is_file() and (tree / "core" / "meson.build").is_file():
            return tree
    return found[0]


def build(name: str, prefix: Path, lib: str | None, env: Mapping[str, str],
          source: Path | None = None, say: Callable[[str], None] = lambda _: None) -> Built:
    """Build the variant core ``name`` against ``prefix`` (see the module's doc); ``say``
    hears one line when the checks have passed and Meson starts."""
    source = source or source_checkout()
    if not variants.NAME_RE.match(name):
        raise UsageError(f"--variant {name!r}: a name of letters, digits, '.', '_' and '-' "
                         "(it goes after @ on --lib)")
    prefix = Path(os.path.expanduser(str(prefix))).resolve()
    if not prefix.is_dir():
        raise UsageError(f"--prefix {prefix} is not a directory")
    lib = lib or guess_lib(prefix)
    if lib not in variants.LIBRARY_FILES:
        raise UsageError(f"--lib {lib!r}: a variant core is built for one of "
                         f"{', '.join(variants.LIBRARY_FILES)}")
    pcs = variants.LIBRARY_FILES[lib].pkgconfig
    if not any((d / f"{pc}.pc").is_file() for d in pkgconfig_dirs(prefix) for pc in pcs):
        # else pkg-config would quietly find the system's headers instead
        raise UsageError(f"--prefix {prefix} has no {' or '.join(p + '.pc' for p in pcs)} in "
                         "lib/pkgconfig: a variant core is built against the prefix's "
                         "pkg-config files")
    if not (source / "meson.build").is_file() or not (source / "core" / "meson.build").is_file():
        raise EnvironmentProblem("building a variant core needs cipherbench's source checkout "
                                 f"(no meson.build in {source})")
    meson = shutil.which("meson", path=env.get("PATH", os.defpath))
    if meson is None:
        raise EnvironmentProblem("building a variant core needs meson (Debian: apt install "
                                 "meson ninja-build; or pip install meson ninja)")
    say(f"building a core against {prefix} (meson, a minute or less)...")
    home = cache_dir(env) / "variants" / name
    build_dir, log = home / "build", home / "build.log"
    if build_dir.exists():   # a new prefix or library: configure from scratch
        shutil.rmtree(build_dir)
    home.mkdir(parents=True, exist_ok=True)
    variant = variants.Variant(name, lib, prefix, build_dir / "core" / CORE_NAME)
    rpath = ":".join(str(d) for d in variant.lib_dirs())
    old = [p for p in env.get("PKG_CONFIG_PATH", "").split(":") if p]
    benv = {**env, "PKG_CONFIG_PATH": ":".join([str(d) for d in pkgconfig_dirs(prefix)] + old)}
    steps = [
        [meson, "setup", str(build_dir), str(source), "--buildtype=release",
         "-Dauto_features=disabled", f"-D{lib}=enabled",
         f"-Dc_link_args=-Wl,-rpath,{rpath}", f"-Dcpp_link_args=-Wl,-rpath,{rpath}"],
        [meson, "compile", "-C", str(build_dir), f"core/{CORE_NAME}", f"core/modules/{lib}"],
    ]
    with log.open("w") as out:
        for argv in steps:
            out.write("$ " + " ".join(argv) + "\n")
            out.flush()
            rc = subprocess.run(argv, env=benv, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT).returncode
            if rc != 0:
                raise EnvironmentProblem(f"building the {lib} variant core against {prefix} "
                                         f"failed: {_meson_error(log)} (the whole log: {log})")
    assert variant.core is not None
    core_env = variant.env(env)
    loaded = variants.check_loaded(variant, variants.loader_view(variant.core, core_env, lib))
    try:
        inv = Core(variant.core, core_env).list(lib)
    except (CoreCrashed, CoreUsage) as e:
        raise EnvironmentProblem(f"the {lib} variant core built but does not run: {e}")
    version = str((inv.libraries.get(lib) or {}).get("version") or "")
    return Built(variant, version, loaded, log)
