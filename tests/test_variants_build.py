# SPDX-License-Identifier: GPL-3.0-or-later
"""A second version of a real library measured beside the system's.

Nettle of another Debian release is built once into a prefix under the user's cache
(``variant_lib``: about a minute the first time, nothing afterwards), then:

- ``run --lib nettle,nettle@PREFIX``: the system's core with the prefix first on the loader
  path; two columns, each with the version the library reports at run time, the variant's
  file from the prefix;
- ``core build --variant NAME --prefix PREFIX``: a core built against the prefix's pkg-config
  files (a few seconds), recorded in the variants file and measured as ``nettle@NAME``;
- ``compare`` of the two runs names the columns with their versions.

Skipped, with the reason, without the real core, a compiler, m4, make or the network.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import cipherbench.export
from cipherbench.cores.core_client import Core
from cipherbench.store import Store
from conftest import real_core
from variant_lib import nettle_prefix

ALGOS = "sha256,aes-128-cbc"
pytestmark = pytest.mark.build_once

QUICK = ("--sizes", "1024,16384", "--samples", "5", "--budget", "0", "--no-progress")


@pytest.fixture(scope="module")
def nettle():
    """(core, system version, prefix of the other version)."""
    core = real_core()
    inv = Core(core).list()
    if "nettle" not in inv.libraries:
        pytest.skip("the real core was built without Nettle")
    system = str(inv.libraries["nettle"]["version"])
    return core, system, nettle_prefix(system)


def _last_run(env):
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        return run, s.results(run.id)


def test_two_versions_side_by_side(cli, env, nettle, tmp_path):
    core, system, prefix = nettle
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", f"nettle,nettle@{prefix}", "--algo", ALGOS, *QUICK,
            env_override=e)
    if r.rc != 0 and ("symbol lookup error" in r.err or "undefined symbol" in r.err):
        # An older Nettle first on the loader path cannot serve what was built against a newer
        # one (Debian 13: the nettle module uses Nettle 3.10's SM4, GnuTLS 3.8 its symbols):
        # the run says so in the loader's own words, one line, and `core build` (the next
        # test) is the way there.
        assert r.rc == 1 and len(r.err.strip().splitlines()) == 1, r.err
        assert f"nettle@{prefix}" in r.err and "undefined symbol" in r.err, r.err
        pytest.skip("the older Nettle breaks the system's newer GnuTLS in the same core; "
                    "checked that the run says so in the loader's words")
    assert r.rc == 0, r.err
    run, results = _last_run(e)
    libs = run.metadata["libraries"]
    col = next(l for l in libs if l.startswith("nettle@"))
    other = libs[col]["version"]
    assert other != system and col == f"nettle@{other}"     # the run-time version names it
    assert libs["nettle"]["version"] == system
    assert libs[col]["variant"]["of"] == "nettle"
    assert libs[col]["variant"]["loaded"].startswith(f"{prefix}/lib/libnettle.so")
    assert run.args["libs"] == ["ref", "nettle", col]
    for lib in ("nettle", col):
        pts = [x for x in results if x.lib == lib and x.metric == "ns_per_op"]
        assert {(x.algo, x.size) for x in pts} == {(a, s) for a in ALGOS.split(",")
                                                  for s in (1024, 16384)}
        assert all(x.median > 0 for x in pts)
    header = next(l for l in r.out.splitlines() if "algorithm" in l)
    assert "nettle" in header and col in header
    # export: the column and its version travel with the results
    csv = cli("export", str(run.id), "-f", "csv", env_override=e)
    assert f",{col},sha256,hash," in csv.out
    doc = json.loads(cli("export", str(run.id), env_override=e).out)
    assert doc["run"]["metadata"]["libraries"][col]["version"] == other
    md = cli("export", str(run.id), "-f", "markdown", env_override=e)
    assert f"- **{col}**: {other} " in md.out and f"from {prefix}/lib/libnettle.so" in md.out
    listing = cli("list", "--lib", f"nettle,nettle@{prefix}", env_override=e)
    assert listing.rc == 0 and f"{col} " in listing.out and f" {other} " in listing.out
    jsonschema = pytest.importorskip("jsonschema")
    schema = Path(cipherbench.export.__file__).resolve().parent / "schema.json"
    jsonschema.validate(doc, json.loads(schema.read_text()))


def test_variant_core_built_against_the_prefix(cli, env, nettle, tmp_path):
    core, system, prefix = nettle
    if shutil.which("meson") is None:
        pytest.skip("building a variant core needs meson")
    conf = tmp_path / "variants.toml"
    e = dict(env, CIPHERBENCH_CORE=str(core), XDG_CACHE_HOME=str(tmp_path / "cache"),
             CIPHERBENCH_VARIANTS=str(conf))
    r = cli("core", "build", "--variant", "other", "--prefix", str(prefix), env_override=e)
    assert r.rc == 0, r.err
    built = tmp_path / "cache" / "cipherbench" / "variants" / "other" / "build" / "core" / \
        "cipherbench-core"
    assert built.is_file() and str(built) in conf.read_text()
    inv = Core(built).list()
    assert [l for l in inv.libs() if l != "ref"] == ["nettle"]   # only that backend
    assert inv.libraries["nettle"]["version"] != system          # found through the rpath
    r = cli("run", "--lib", "nettle,nettle@other", "--algo", "sha256", *QUICK, env_override=e)
    assert r.rc == 0, r.err
    run_b, results = _last_run(e)
    col = next(l for l in run_b.metadata["libraries"] if l.startswith("nettle@"))
    assert run_b.metadata["libraries"][col]["variant"]["core"] == str(built)
    assert {x.lib for x in results if x.algo == "sha256"} == {"nettle", col}
    # the same run again, the variant left out: compare names each library with its version
    r = cli("run", "--lib", "nettle", "--algo", "sha256", *QUICK, env_override=e)
    assert r.rc == 0, r.err
    r = cli("compare", str(run_b.id), "last", env_override=e)
    assert r.rc == 0, r.err
    assert f"nettle {system}:" in r.out
