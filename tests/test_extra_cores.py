# SPDX-License-Identifier: GPL-3.0-or-later
"""The measurement cores of other languages (core-go/, core-rust/; built into build-extra/
by scripts/build-extra-cores.sh): every line they write matches the protocol's schema and
the record order of the golden streams, every algorithm they offer passes its known
answers, a wrong answer is never timed, and the front end's core client reads them.
Each core's tests are skipped, with the reason, when it was not built."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from cipherbench.cores import core_client

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "core" / "protocol" / "schema.json"
EXAMPLES = ROOT / "core" / "protocol" / "examples"
VECTORS = ROOT / "vectors"
FAST = ["--sizes", "16,1024,2048", "--samples", "2", "--min-sample-ms", "0.2"]


@dataclass(frozen=True)
class ExtraCore:
    """One core of another language: where it is built and the libraries it measures."""

    name: str
    env_var: str
    libs: tuple[str, ...]        # in list order; the optional ones are left out of a build
    optional: tuple[str, ...] = ()

    def path(self) -> Path:
        return Path(os.environ.get(self.env_var) or ROOT / "build-extra" / f"cipherbench-core-{self.name}")


CORES = [ExtraCore("go", "CIPHERBENCH_CORE_GO", ("go",)),
         ExtraCore("rust", "CIPHERBENCH_CORE_RUST", ("ring", "rustcrypto", "aws-lc"), ("aws-lc",))]


@pytest.fixture(params=CORES, ids=[c.name for c in CORES])
def core(request) -> ExtraCore:
    return built(request.param)


def built(c: ExtraCore) -> ExtraCore:
    """c with the libraries its build lists; skips when it was not built."""
    p = c.path()
    if not (p.is_file() and os.access(p, os.X_OK)):
        pytest.skip(f"{p.name} not built (scripts/build-extra-cores.sh builds it when "
                    f"{'go' if c.name == 'go' else 'cargo'} is installed)")
    built = tuple(r["lib"] for r in run(c, "list").records if r["type"] == "library")
    assert built == tuple(x for x in c.libs if x in built or x not in c.optional)
    return dataclasses.replace(c, libs=built)


@dataclass
class Ran:
    rc: int
    records: list[dict]
    stdout: str
    stderr: str


def run(core: ExtraCore, *args: str, env: dict | None = None) -> Ran:
    e = dict(os.environ, CIPHERBENCH_VECTORS=str(VECTORS))
    e.update(env or {})
    p = subprocess.run([str(core.path()), *args], capture_output=True, text=True, env=e, timeout=300)
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    return Ran(p.returncode, recs, p.stdout, p.stderr)


@pytest.fixture(scope="module")
def validator():
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))


def check_schema(validator, recs):
    assert recs, "no records"
    for r in recs:
        validator.validate(r)


# The order of records, as the golden streams show it (one letter per record type).
LETTER = {"preamble": "P", "module": "M", "library": "L", "algorithm": "A", "kat": "K", "differential": "D",
          "point": "T", "fit": "F", "error": "E", "end": "Z"}
GRAMMAR = {
    "list": re.compile(r"PM*(LA*)+Z"),   # the C core's modules, loaded or not
    "kat": re.compile(r"P(LK*)+D*Z"),
    "bench": re.compile(r"PL(K+(T+F?|E)|E)*Z"),
}


def shape(recs) -> str:
    return "".join(LETTER[r["type"]] for r in recs)


@pytest.mark.parametrize("example,command", [("list.jsonl", "list"), ("kat.jsonl", "kat"),
                                             ("bench-aead.jsonl", "bench"),
                                             ("bench-kat-failed.jsonl", "bench")])
def test_the_grammar_fits_the_golden_streams(example, command):
    recs = [json.loads(x) for x in (EXAMPLES / example).read_text().splitlines()]
    assert GRAMMAR[command].fullmatch(shape(recs))


def listing(core):
    r = run(core, "list")
    assert r.rc == 0, r.stderr
    return r


def test_list_names_the_libraries_and_matches_the_schema(core, validator):
    r = listing(core)
    check_schema(validator, r.records)
    assert GRAMMAR["list"].fullmatch(shape(r.records))
    assert [x["lib"] for x in r.records if x["type"] == "library"] == list(core.libs)
    algos = [x for x in r.records if x["type"] == "algorithm"]
    for lib in core.libs:
        mine = {a["algo"] for a in algos if a["lib"] == lib}
        assert {"aes-128-gcm", "sha256", "hmac-sha256"} <= mine
    assert r.stderr == ""


def test_every_algorithm_passes_its_known_answers(core, validator):
    algos = {(a["lib"], a["algo"]) for a in listing(core).records if a["type"] == "algorithm"}
    r = run(core, "kat")
    assert r.rc == 0, r.stderr
    check_schema(validator, r.records)
    assert GRAMMAR["kat"].fullmatch(shape(r.records))
    kats = {(k["lib"], k["algo"]): k for k in r.records if k["type"] == "kat"}
    assert set(kats) == algos, "every algorithm offered has its vectors"
    for key, k in kats.items():
        assert k["failed"] == 0 and k["passed"] > 0 and k["source"], key
    diffs = [d for d in r.records if d["type"] == "differential"]
    assert all(d["ok"] for d in diffs), diffs
    if len(core.libs) > 1:
        assert {d["algo"] for d in diffs} >= {"aes-128-gcm", "chacha20-poly1305", "sha256"}


def test_every_algorithm_is_timed_after_its_known_answers(core, validator):
    algos = [a for a in listing(core).records if a["type"] == "algorithm"]
    for lib in core.libs:
        for op in ("encrypt", "decrypt", "hash", "mac"):
            names = [a["algo"] for a in algos if a["lib"] == lib and op in a["ops"]]
            if not names:
                continue
            r = run(core, "bench", "--lib", lib, "--algo", ",".join(names), "--op", op, *FAST,
                    "--misalign", "3")
            assert r.rc == 0, r.stderr
            check_schema(validator, r.records)
            assert GRAMMAR["bench"].fullmatch(shape(r.records)), shape(r.records)
            assert not [e for e in r.records if e["type"] == "error"]
            for name in names:
                pts = [p for p in r.records if p["type"] == "point" and p["algo"] == name]
                assert [p["size"] for p in pts] == [16, 1024, 2048], (lib, name, op)
                assert all(p["misalign"] == 3 and p["iters"] >= 1 and min(p["wall_ns"]) > 0
                           for p in pts)
                kat_first = next(i for i, x in enumerate(r.records) if x.get("algo") == name)
                assert r.records[kat_first]["type"] == "kat", "known answers come before timing"


def wrong_vectors(tmp_path: Path, algo: str) -> Path:
    """A vector directory whose file for algo has one wrong answer."""
    d = tmp_path / "vectors"
    d.mkdir()
    doc = json.loads((VECTORS / f"{algo}.json").read_text())
    v = doc["vectors"][0]
    field = next(f for f in ("md", "mac", "tag", "ct") if v.get(f))
    v[field] = v[field][:-2] + ("00" if v[field][-2:] != "00" else "01")
    (d / f"{algo}.json").write_text(json.dumps(doc))
    return d


@pytest.mark.parametrize("algo,op", [("sha256", "hash"), ("aes-128-gcm", "encrypt"),
                                     ("hmac-sha256", "mac")])
def test_a_wrong_known_answer_is_never_timed(core, validator, tmp_path, algo, op):
    vec = wrong_vectors(tmp_path, algo)
    for lib in core.libs:
        r = run(core, "bench", "--lib", lib, "--algo", algo, "--op", op, "--vectors", str(vec), *FAST)
        assert r.rc == 1, r.stderr
        check_schema(validator, r.records)
        assert not [p for p in r.records if p["type"] == "point"]
        err = [e for e in r.records if e["type"] == "error"]
        assert len(err) == 1 and err[0]["reason"] == "kat_failed" and "differs" in err[0]["message"]
        k = run(core, "kat", "--lib", lib, "--vectors", str(vec), "--no-differential")
        assert k.rc == 1
        assert [x["failed"] for x in k.records if x["type"] == "kat" and x["algo"] == algo] == [1]


def test_must_fail_vectors_are_refused(core, validator):
    """vectors/invalid/ is read: each AEAD and MAC offered has a kat record for its
    must-fail cases, every case refused."""
    algos = {(a["lib"], a["algo"]) for a in listing(core).records if a["type"] == "algorithm"
             and a["kind"] in ("aead", "mac")}
    r = run(core, "kat", "--no-differential")
    assert r.rc == 0, r.stderr
    check_schema(validator, r.records)
    cases = {}
    for k in r.records:
        if k["type"] == "kat" and (k["source"] or "").startswith("derived from"):
            cases[(k["lib"], k["algo"])] = k
    with_cases = {(lib, a) for lib, a in algos if (VECTORS / "invalid" / f"{a}.json").is_file()}
    assert with_cases and set(cases) == with_cases
    for (lib, a), k in cases.items():
        n = len(json.loads((VECTORS / "invalid" / f"{a}.json").read_text())["vectors"])
        assert (k["passed"], k["failed"]) == (n, 0), (lib, a, k)


def accepted_case_vectors(tmp_path: Path, algo: str) -> Path:
    """The real vectors of algo, and in invalid/ its first vector unchanged but marked
    must-fail: a library that verifies it (as a correct one does) fails the check."""
    d = tmp_path / "vectors"
    (d / "invalid").mkdir(parents=True)
    doc = json.loads((VECTORS / f"{algo}.json").read_text())
    (d / f"{algo}.json").write_text(json.dumps(doc))
    case = {k: v for k, v in doc["vectors"][0].items() if k != "pt"}
    case.update(name="marked invalid", result="invalid", expect="auth_failure")
    doc["vectors"] = [case]
    (d / "invalid" / f"{algo}.json").write_text(json.dumps(doc))
    return d


@pytest.mark.parametrize("algo,op", [("aes-128-gcm", "decrypt"), ("hmac-sha256", "mac")])
def test_an_accepted_must_fail_case_is_never_timed(core, validator, tmp_path, algo, op):
    vec = accepted_case_vectors(tmp_path, algo)
    for lib in core.libs:
        r = run(core, "bench", "--lib", lib, "--algo", algo, "--op", op, "--vectors", str(vec), *FAST)
        assert r.rc == 1, r.stderr
        check_schema(validator, r.records)
        assert not [p for p in r.records if p["type"] == "point"]
        err = [e for e in r.records if e["type"] == "error"]
        assert len(err) == 1 and err[0]["reason"] == "kat_failed", err
        assert "accepted an invalid vector" in err[0]["message"] or "gave the mac" in err[0]["message"]


def test_must_fail_cases_alone_are_not_enough_to_time(core, tmp_path):
    d = tmp_path / "vectors"
    (d / "invalid").mkdir(parents=True)
    shutil.copy(VECTORS / "invalid" / "aes-128-gcm.json", d / "invalid")
    r = run(core, "bench", "--lib", core.libs[0], "--algo", "aes-128-gcm", "--op", "encrypt",
            "--vectors", str(d), *FAST)
    assert r.rc == 1
    assert [e["reason"] for e in r.records if e["type"] == "error"] == ["kat_failed"]
    assert not [p for p in r.records if p["type"] == "point"]


def test_no_vectors_no_timing(core, tmp_path):
    empty = tmp_path / "none"
    empty.mkdir()
    lib = core.libs[0]
    r = run(core, "bench", "--lib", lib, "--algo", "sha256", "--op", "hash", "--vectors", str(empty), *FAST)
    assert r.rc == 1
    assert [e["reason"] for e in r.records if e["type"] == "error"] == ["kat_failed"]
    assert not [p for p in r.records if p["type"] == "point"]


@pytest.mark.parametrize("args", [
    [], ["frobnicate"], ["list", "--lib", "nosuch"], ["kat", "--lib", "nosuch"],
    ["bench", "--algo", "sha256", "--op", "hash"],
    ["bench", "--lib", "LIB", "--algo", "nosuch", "--op", "hash"],
    ["bench", "--lib", "LIB", "--algo", "sha256", "--op", "encrypt"],
    ["bench", "--lib", "LIB", "--algo", "sha256", "--op", "hash", "--sizes", "0"],
    ["bench", "--lib", "LIB", "--algo", "sha256", "--op", "hash", "--samples", "0"],
    ["bench", "--lib", "LIB", "--algo", "sha256", "--op", "hash", "--misalign", "64"],
    ["bench", "--lib", "LIB", "--algo", "sha256", "--op", "hash", "--cpu", "1023"],
    ["bench", "--lib", "LIB", "--algo", "sha256", "--op", "hash", "--bogus"],
    ["kat", "--vectors", "/nonexistent/vectors"],
    ["list", "--disable-cpu-feature", "nosuch"],
], ids=lambda a: " ".join(a) or "no command")
def test_bad_arguments_are_one_line_and_exit_2(core, args):
    r = run(core, *[core.libs[0] if a == "LIB" else a for a in args])
    assert r.rc == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr and "panicked" not in r.stderr


def test_malformed_vector_file_alone_is_a_usage_error(core, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = run(core, "kat", "--vectors", str(bad))
    assert r.rc == 2 and r.stdout == "" and "not valid JSON" in r.stderr


def test_hardware_switch(core, validator):
    lib = core.libs[0]
    r = run(core, "--no-hw", "bench", "--lib", lib, "--algo", "aes-128-gcm", "--op", "encrypt", *FAST)
    check_schema(validator, r.records)
    rec = next(x for x in r.records if x["type"] == "library")
    assert rec["hw_off_requested"] == ["aes", "pclmul", "avx2", "vaes", "sha"]
    if core.name == "go":
        if rec["hw_switch"] == "cannot_disable":
            pytest.skip("no GODEBUG switch is wired on this architecture")
        # GODEBUG turns the runtime's and x/sys/cpu's features off; the software path is
        # checked against the vectors, then timed.
        assert rec["hw_switch"] == "applied"
        assert not set(rec["hw_used"]) & set(rec["hw_off_requested"])
        assert any(e.startswith("GODEBUG=") and "cpu.aes=off" in e for e in rec["hw_env"])
        base = run(core, "--cpu-profile", "baseline", "list", "--lib", lib)
        brec = next(x for x in base.records if x["type"] == "library")
        assert brec["hw_switch"] == "applied" and brec["hw_used"] == []   # AVX-512 too
        assert "cpu.avx512f=off" in brec["hw_env"][0]
        assert r.rc == 0 and [x["type"] for x in r.records].count("point") == 3
        on = run(core, "bench", "--lib", lib, "--algo", "aes-128-gcm", "--op", "encrypt", *FAST)
        used = next(x for x in on.records if x["type"] == "library")["hw_used"]
        cpu_flags = next(x for x in on.records if x["type"] == "preamble")["cpu_flags"]
        assert ("aes" in used) == ("aes" in cpu_flags)
    else:
        assert rec["hw_switch"] == "cannot_disable" and rec["hw_env"] == []
        assert r.rc == 0
        assert [e["reason"] for e in r.records if e["type"] == "error"] == ["cannot_disable"]
        assert not [p for p in r.records if p["type"] == "point"]


def test_aws_lc_switch_is_openssl_ia32cap(core, validator):
    """AWS-LC reads OPENSSL_ia32cap when it initialises: the core sets it, executes itself
    again, checks the software paths against the vectors and times them."""
    if "aws-lc" not in core.libs:
        pytest.skip("this core has no aws-lc (built without cmake, or not the Rust core)")
    r = run(core, "--disable-cpu-feature", "aes,pclmul", "bench", "--lib", "aws-lc", "--algo",
            "aes-128-gcm", "--op", "decrypt", *FAST)
    assert r.rc == 0, r.stderr
    check_schema(validator, r.records)
    rec = next(x for x in r.records if x["type"] == "library")
    assert rec["hw_switch"] == "applied"
    assert rec["hw_env"] == ["OPENSSL_ia32cap=~0x200000200000000:~0x0"]
    # AWS-LC's own capability vector, read back after the switch
    assert not {"aes", "pclmul"} & set(rec["hw_used"])
    on = next(x for x in run(core, "list", "--lib", "aws-lc").records if x["type"] == "library")
    flags = next(x for x in r.records if x["type"] == "preamble")["cpu_flags"]
    assert ("aes" in on["hw_used"]) == ("aes" in flags)
    # the answers, then the must-fail cases of vectors/invalid/
    assert [x["type"] for x in r.records].count("kat") == 2
    assert [x["type"] for x in r.records].count("point") == 3


def test_the_front_end_core_client_reads_it(core):
    c = core_client.Core(core.path(), dict(os.environ, CIPHERBENCH_VECTORS=str(VECTORS)))
    inv = c.list()
    assert inv.libs() == list(core.libs)
    assert inv.supports(core.libs[-1], "chacha20-poly1305", "decrypt")
    with c.bench(core.libs[-1], ["chacha20-poly1305"], "decrypt", [64, 4096], samples=3,
                 min_sample_ms=0.2) as s:
        recs = list(s)
    assert s.returncode == 0
    pts = [r for r in recs if r.type == "point"]
    assert [p.size for p in pts] == [64, 4096]
    assert all(v > 0 for p in pts for v in core_client.per_op_ns(p))


def test_xchacha_vectors_agree_with_libsodium():
    """vectors/xchacha20-poly1305.json, re-checked with libsodium (independent of
    the Go and Rust cores that read it)."""
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("sodium")
    if not name:
        pytest.skip("libsodium is not installed")
    lib = ctypes.CDLL(name)
    assert lib.sodium_init() >= 0
    doc = json.loads((VECTORS / "xchacha20-poly1305.json").read_text())
    assert doc["format"] == "cipherbench-vectors/1" and doc["algo"] == "xchacha20-poly1305"
    for v in doc["vectors"]:
        key, iv, aad, pt = (bytes.fromhex(v[k]) for k in ("key", "iv", "aad", "pt"))
        out = ctypes.create_string_buffer(len(pt) + 16)
        n = ctypes.c_ulonglong()
        lib.crypto_aead_xchacha20poly1305_ietf_encrypt(
            out, ctypes.byref(n), pt, ctypes.c_ulonglong(len(pt)), aad, ctypes.c_ulonglong(len(aad)),
            None, iv, key)
        assert out.raw[:n.value].hex() == v["ct"] + v["tag"], v["name"]


def test_build_script_skips_a_missing_toolchain_with_one_line(tmp_path):
    """Without go and cargo on PATH the build says one line per core and succeeds."""
    bash = shutil.which("bash")
    tools = tmp_path / "bin"
    tools.mkdir()
    for t in ("sort", "head", "awk", "mkdir", "dirname", "cp", "printf"):
        found = shutil.which(t)
        if found:
            (tools / t).symlink_to(found)
    p = subprocess.run([bash, str(ROOT / "scripts" / "build-extra-cores.sh")], capture_output=True,
                       text=True, env={"PATH": str(tools), "HOME": str(tmp_path)})
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert len(lines) == 2 and all("skipped" in x for x in lines), lines


@dataclass(frozen=True)
class TlsLib:
    """A TLS library of an extra core: rustls picks any TLS 1.3 suite it is given;
    crypto/tls picks its TLS 1.3 suite itself and has CBC suites rustls does not."""

    core: ExtraCore
    lib: str


TLS_LIBS = [(CORES[0], "go"), (CORES[1], "rustls-ring"), (CORES[1], "rustls-aws-lc")]
TLS_GRAMMAR = re.compile(r"PL(T|E|H)*Z")
TLS_LETTER = dict(LETTER, handshake="H", suite="S")


@pytest.fixture(params=TLS_LIBS, ids=[lib for _, lib in TLS_LIBS])
def tls(request) -> TlsLib:
    c, lib = request.param
    listed = [r["lib"] for r in run(built(c), "tls", "--list").records if r["type"] == "library"]
    if lib not in listed:
        pytest.skip(f"{c.path().name} was built without {lib} (aws-lc needs cmake)")
    return TlsLib(built(c), lib)


def tls_run(t: TlsLib, *args: str, env: dict | None = None) -> Ran:
    return run(t.core, "tls", "--lib", t.lib, *args, env=env)


@pytest.mark.parametrize("example", ["tls.jsonl", "tls-refused.jsonl"])
def test_tls_grammar_fits_the_c_cores_golden_streams(example):
    recs = [json.loads(x) for x in (EXAMPLES / example).read_text().splitlines()]
    assert TLS_GRAMMAR.fullmatch("".join(TLS_LETTER[r["type"]] for r in recs))


def test_tls_list_names_the_suites_as_the_c_core(tls, validator):
    r = run(tls.core, "tls", "--list")
    assert r.rc == 0, r.stderr
    check_schema(validator, r.records)
    assert re.fullmatch(r"PL+S+Z", "".join(TLS_LETTER[x["type"]] for x in r.records))
    golden = [json.loads(x) for x in (EXAMPLES / "tls-list.jsonl").read_text().splitlines()]
    want = [s for s in golden if s["type"] == "suite"]
    assert [s for s in r.records if s["type"] == "suite"] == want


def test_tls_transfer_checks_the_suite_and_the_data(tls, validator):
    suites = ["TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
              "ECDHE-RSA-AES128-SHA", "TLS_AES_128_CCM_SHA256"]
    r = tls_run(tls, "--suites", ",".join(suites), "--sizes", "1400,16384",
                "--samples", "2", "--min-sample-ms", "0.2")
    assert r.rc == 0, r.stderr
    check_schema(validator, r.records)
    assert TLS_GRAMMAR.fullmatch("".join(TLS_LETTER[x["type"]] for x in r.records))
    assert [x["lib"] for x in r.records if x["type"] == "library"] == [tls.lib]
    pts = {(p["algo"], p["size"]): p for p in r.records if p["type"] == "point"}
    refused = {e["algo"]: e for e in r.records if e["type"] == "error"}
    assert all(e["reason"] == "refused" for e in refused.values())
    assert set(refused) | {a for a, _ in pts} == {"TLS_AES_128_GCM_SHA256",
                                                 "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
                                                 "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
                                                 "TLS_AES_128_CCM_SHA256"}
    assert "TLS_AES_128_CCM_SHA256" in refused
    chacha = "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"
    for size in (1400, 16384):
        p = pts[(chacha, size)]
        assert p["op"] == "transfer" and p["proto"] == "TLS1.2" and p["suite"] == chacha
        assert p["group"] == "x25519" and p["cert"] == "rsa2048" and p["lib"] == tls.lib
        assert p["iters"] >= 1 and min(p["wall_ns"]) > 0 and len(p["cpu_ns"]) == 2
    if tls.lib == "go":
        # TLS 1.3: crypto/tls picks the suite itself; what it picked is measured, anything
        # else is refused with the reason, never measured under another name.
        assert ("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", 1400) in pts
        t13 = pts.get(("TLS_AES_128_GCM_SHA256", 1400))
        assert (t13 and t13["suite"] == "TLS_AES_128_GCM_SHA256") or \
            refused["TLS_AES_128_GCM_SHA256"]["reason"] == "refused"
    else:
        # rustls is given the one suite asked: TLS 1.3 suites are measured by name; it has
        # no CBC suites
        assert pts[("TLS_AES_128_GCM_SHA256", 16384)]["suite"] == "TLS13_AES_128_GCM_SHA256"
        assert pts[("TLS_AES_128_GCM_SHA256", 16384)]["proto"] == "TLS1.3"
        assert "does not implement" in refused["TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"]["message"]


def test_tls_corrupted_data_fails(tls):
    r = tls_run(tls, "--suites", "ECDHE-RSA-AES128-GCM-SHA256", "--sizes", "1400",
                "--samples", "2", "--min-sample-ms", "0.2", env={"CIPHERBENCH_TLS_FAULT": "corrupt"})
    assert r.rc == 1
    errs = [e for e in r.records if e["type"] == "error"]
    assert [e["reason"] for e in errs] == ["run_failed"] and "arrived changed" in errs[0]["message"]
    assert not [p for p in r.records if p["type"] == "point"]


def test_tls_large_writes_arrive_whole(tls):
    """A write larger than a record (and than rustls's default buffers) arrives whole."""
    r = tls_run(tls, "--suites", "ECDHE-RSA-AES128-GCM-SHA256", "--sizes", "16,1048576",
                "--samples", "2", "--min-sample-ms", "0.2")
    assert r.rc == 0, r.stderr
    assert [p["size"] for p in r.records if p["type"] == "point"] == [16, 1048576]


def test_tls_handshakes_full_and_resumed(tls, validator):
    r = tls_run(tls, "--no-transfer", "--handshakes", "--groups", "x25519,x448",
                "--certs", "ecdsa-p256,ed25519", "--samples", "2", "--min-sample-ms", "0.2")
    assert r.rc == 0, r.stderr
    check_schema(validator, r.records)
    hs = {(h["op"], h["group"], h["cert"]) for h in r.records if h["type"] == "handshake"}
    if not hs and tls.lib == "go":
        pytest.skip("crypto/tls chose another TLS 1.3 suite than TLS_AES_128_GCM_SHA256 here")
    assert hs == {(op, g, c) for op in ("handshake", "resume")
                  for g, c in (("x25519", "ecdsa-p256"), ("x25519", "ed25519"))}
    assert all(h["proto"] == "TLS1.3" and h["lib_group"] for h in r.records if h["type"] == "handshake")
    refused = [(e["op"], e["group"]) for e in r.records if e["type"] == "error"]
    assert refused == [("handshake", "x448"), ("resume", "x448")]


@pytest.mark.parametrize("args", [[], ["--lib", "nosuch"], ["--lib", "LIB", "--suites", "nosuch"],
                                  ["--lib", "LIB", "--sizes", "8"], ["--lib", "LIB", "--no-transfer"],
                                  ["--lib", "LIB", "--groups", "x9"], ["--bogus"],
                                  ["--lib", "LIB", "--samples", "0"], ["--lib", "LIB", "--cpu", "1023"]])
def test_tls_bad_arguments(tls, args):
    r = run(tls.core, "tls", *[tls.lib if a == "LIB" else a for a in args])
    assert r.rc == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "panicked" not in r.stderr
