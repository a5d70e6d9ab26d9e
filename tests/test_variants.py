# SPDX-License-Identifier: GPL-3.0-or-later
"""Library variants (``--lib LIB@PREFIX``, ``LIB@NAME``): the spec, the variants file, the
column label, and the loader's word on what the core loads, with the real core on prefixes
that are broken on purpose (a library file the loader refuses, another soname)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cipherbench.cores import variants
from cipherbench.cores.core_client import Core
from cipherbench.errors import EnvironmentProblem, UsageError
from conftest import real_core


def test_parse_spec():
    assert variants.parse_spec("libgcrypt") is None
    assert variants.parse_spec("libgcrypt@/opt/x") == ("libgcrypt", "/opt/x")
    assert variants.parse_spec("nettle@n310") == ("nettle", "n310")
    for bad in ("nettle@", "@/opt/x"):
        with pytest.raises(UsageError, match="LIB@PREFIX"):
            variants.parse_spec(bad)


def test_file_round_trip_and_resolve(tmp_path):
    path = tmp_path / "conf" / "variants.toml"
    env = {"CIPHERBENCH_VARIANTS": str(path)}
    assert variants.variants_file(env) == path
    assert variants.load(path) == {}
    prefix = tmp_path / "opt" / "gcry"
    (prefix / "lib").mkdir(parents=True)
    variants.save(path, variants.Variant("g111", "libgcrypt", prefix))
    variants.save(path, variants.Variant("n", "nettle", prefix, prefix / "core"))
    known = variants.load(path)
    assert known["g111"] == variants.Variant("g111", "libgcrypt", prefix)
    assert known["n"].core == prefix / "core"
    v = variants.resolve("libgcrypt@g111", env, ["libgcrypt", "nettle"])
    assert v.prefix == prefix and v.spec == "libgcrypt@g111"
    assert v.env({"LD_LIBRARY_PATH": "/x"})["LD_LIBRARY_PATH"] == f"{prefix / 'lib'}:/x"
    by_path = variants.resolve(f"nettle@{prefix}", env, ["libgcrypt", "nettle"])
    assert by_path.prefix == prefix and by_path.core is None
    with pytest.raises(UsageError, match="is a build of libgcrypt, not nettle"):
        variants.resolve("nettle@g111", env, ["libgcrypt", "nettle"])
    with pytest.raises(UsageError, match="no variant 'zz'"):
        variants.resolve("nettle@zz", env, ["libgcrypt", "nettle"])
    with pytest.raises(UsageError, match="unknown library 'netle'.*did you mean nettle"):
        variants.resolve(f"netle@{prefix}", env, ["libgcrypt", "nettle"])
    with pytest.raises(EnvironmentProblem, match="its core .* is gone"):
        variants.resolve("nettle@n", env, ["libgcrypt", "nettle"])
    with pytest.raises(UsageError, match="not a directory"):
        variants.resolve(f"nettle@{tmp_path / 'none'}", env, ["nettle"])


def test_bad_file_is_one_line(tmp_path):
    path = tmp_path / "variants.toml"
    path.write_text("x = [\n")
    with pytest.raises(EnvironmentProblem, match="is not TOML"):
        variants.load(path)
    path.write_text('x = {lib = "nettle"}\n')
    with pytest.raises(EnvironmentProblem, match="entry 'x' needs lib and prefix"):
        variants.load(path)


def test_column_label():
    v = variants.Variant("/opt/gcry-1.11", "libgcrypt", Path("/opt/gcry-1.11"))
    assert variants.column_label(v, "1.11.0", set()) == "libgcrypt@1.11.0"
    # the same version as a column already there: the prefix's name instead
    assert variants.column_label(v, "1.11.0", {"libgcrypt@1.11.0"}) == "libgcrypt@gcry-1.11"
    named = variants.Variant("g", "openssl", Path("/opt/o"))
    assert variants.column_label(named, "OpenSSL 3.5.1 1 Jul 2025", set()) == "openssl@3.5.1"
    assert variants.column_label(named, "OpenSSL 3.5.1 1 Jul 2025",
                                 {"openssl@3.5.1"}) == "openssl@g"
    assert variants.short_version("Botan 2.19.3 (unreleased)") == "2.19.3"


def _system_lib(core: Path, lib: str) -> tuple[str, Path]:
    """(soname, file) of ``lib`` as the system's loader maps it for the real core."""
    found = variants.loaded_file(lib, variants.loader_view(core, {"PATH": "/usr/bin:/bin"}, lib))
    if found is None or not found[1]:
        pytest.skip(f"the real core does not load a {lib} shared library")
    return found[0], Path(found[1])


def _core_lib(core: Path) -> str:
    inv = Core(core).list()
    for lib in ("nettle", "libgcrypt", "openssl"):
        if lib in inv.libraries:
            return lib
    pytest.skip("the real core has none of nettle, libgcrypt, openssl")


def test_loader_error_is_the_loaders_own_line(cli, env, tmp_path):
    """A prefix whose library the loader refuses: the run stops with the loader's message in
    one line (not a false "unknown library")."""
    core = real_core()
    lib = _core_lib(core)
    soname, _ = _system_lib(core, lib)
    (tmp_path / "broken" / "lib").mkdir(parents=True)
    (tmp_path / "broken" / "lib" / soname).write_text("not a shared object\n")
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", f"{lib}@{tmp_path / 'broken'}", "--algo", "sha256", "--quick",
            env_override=e)
    assert r.rc == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert "error while loading shared libraries" in lines[0]
    assert f"{tmp_path}/broken/lib/{soname}" in lines[0] and "unknown library" not in lines[0]


def test_other_soname_is_refused_with_the_file_it_would_measure(cli, env, tmp_path):
    """A prefix whose library has another soname: the core would still load the system's, so
    the run is refused, naming that file and the command that builds a core for it."""
    core = real_core()
    lib = _core_lib(core)
    soname, system_file = _system_lib(core, lib)
    stem, _, major = soname.rpartition(".so.")
    other = f"{stem}.so.{int(major) + 1}"
    (tmp_path / "p" / "lib").mkdir(parents=True)
    shutil.copy(system_file, tmp_path / "p" / "lib" / other)
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", f"{lib}@{tmp_path / 'p'}", "--algo", "sha256", "--quick",
            env_override=e)
    assert r.rc == 1
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert f"the core still loads {system_file}" in r.err
    assert f"has {other}, another soname than the core's {soname}" in r.err
    assert "cipherbench core build --variant NAME" in r.err


def test_core_variants_lists_the_file(cli, env, tmp_path):
    path = tmp_path / "v.toml"
    e = dict(env, CIPHERBENCH_VARIANTS=str(path))
    r = cli("core", "variants", env_override=e)
    assert r.rc == 0 and "no variants in" in r.out
    variants.save(path, variants.Variant("g", "libgcrypt", Path("/opt/g")))
    r = cli("core", "variants", env_override=e)
    assert r.rc == 0 and "libgcrypt@g" in r.out and "/opt/g" in r.out


def test_core_build_refuses_bad_input_in_one_line(cli, env, tmp_path):
    e = dict(env, XDG_CACHE_HOME=str(tmp_path / "cache"),
             CIPHERBENCH_VARIANTS=str(tmp_path / "v.toml"))
    r = cli("core", "build", "--variant", "x", "--prefix", str(tmp_path / "none"),
            env_override=e)
    assert r.rc == 2 and "is not a directory" in r.err
    (tmp_path / "p" / "lib" / "pkgconfig").mkdir(parents=True)
    r = cli("core", "build", "--variant", "x", "--prefix", str(tmp_path / "p"), env_override=e)
    assert r.rc == 2 and "no pkg-config file of a library cipherbench measures" in r.err
    r = cli("core", "build", "--variant", "a/b", "--prefix", str(tmp_path / "p"),
            env_override=e)
    assert r.rc == 2 and "--variant 'a/b'" in r.err
    assert not (tmp_path / "v.toml").exists()


def test_compare_differences_of_a_variant_column():
    """A variant's column has dots of its own (nettle@3.10): its metadata still compares, and
    a column only one run has is still left out."""
    from cipherbench import compare
    from cipherbench.store import Run

    def run(rid, libs):
        return Run(rid, "run", "2025-01-01T00:00:00+00:00", None, "complete", {},
                   {"libraries": libs}, "0")
    a = run(1, {"nettle@3.10": {"version": "3.10", "caps": ["aes_hw"]},
                "gnutls": {"version": "3.7.9"}})
    b = run(2, {"nettle@3.10": {"version": "3.10", "caps": []}})
    keys = {d.key: d for d in compare.differences(a, b)}
    assert set(keys) == {"libraries.nettle@3.10.caps"}


def test_compare_summary_names_a_variant_once():
    from cipherbench.compare import LibrarySummary, summary_line
    line = summary_line(LibrarySummary("primitive", "nettle@3.10", "3.10", "3.10", 1.0, 1, 0,
                                       0, 1, 0))
    assert line.startswith("nettle@3.10: B/A")
    line = summary_line(LibrarySummary("primitive", "nettle@other", "3.10", "3.10", 1.0, 1, 0,
                                       0, 1, 0))
    assert line.startswith("nettle@other 3.10: B/A")


def test_core_build_needs_the_librarys_pkgconfig_file(cli, env, tmp_path):
    """A prefix without the library's .pc would build against the system's headers: refused."""
    e = dict(env, XDG_CACHE_HOME=str(tmp_path / "cache"),
             CIPHERBENCH_VARIANTS=str(tmp_path / "v.toml"))
    (tmp_path / "p" / "lib" / "pkgconfig").mkdir(parents=True)
    (tmp_path / "p" / "lib" / "pkgconfig" / "hogweed.pc").write_text("")
    r = cli("core", "build", "--variant", "x", "--prefix", str(tmp_path / "p"), "--lib",
            "nettle", env_override=e)
    assert r.rc == 2 and "has no nettle.pc in lib/pkgconfig" in r.err
    assert not (tmp_path / "cache").exists()
