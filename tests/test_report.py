# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench report``: the chart data, a self-contained HTML file with its PNGs from a
fixture store, and the page rendered by a real headless Chromium (skipped where there is none).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cipherbench.report import data as D
from cipherbench.store import Result, Run, Store
from test_compare import cli, load_runs

pytest.importorskip("matplotlib")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def add_paths(db: Path) -> tuple[int, int, int]:
    """An ssh run (baseline and three ciphers), a gpg run (gpg beside the cipher alone in
    libgcrypt, and a failure) and an advise run, with plausible numbers."""
    with Store.open(db) as store:
        meta = {"cpu_model": "Test CPU", "cores": 2, "hypervisor": "none", "hostname": "box"}
        ssh = store.begin_run("ssh", {"target": "private"}, meta)

        def rate(scenario, lib, algo, op, size, mbps, **extra):
            return Result(scenario, lib, algo, op, size, "bytes_per_s", "B/s", mbps * 1e6,
                          mbps * 0.98e6, mbps * 1.02e6, 5, 0.01, extra=extra)

        store.add_result(ssh, rate("ssh", "tcp", "cleartext-tcp", "transfer", 256 << 20, 2900,
                                   tool="loopback", grade="reference"))
        for algo, mbps, grade in (("aes128-gcm@openssh.com", 1100, "recommended"),
                                  ("chacha20-poly1305@openssh.com", 610, "recommended"),
                                  ("aes128-ctr+umac-64-etm@openssh.com", 820, "acceptable")):
            store.add_result(ssh, rate("ssh", "openssh", algo, "transfer", 256 << 20, mbps,
                                       grade=grade))
        store.finish_run(ssh, "complete")
        gpg = store.begin_run("gpg", {}, meta)
        for algo, mbps in (("AES256", 420), ("CAMELLIA128", 180)):
            store.add_result(gpg, rate("gpg", "gnupg", algo, "encrypt", 64 << 20, mbps,
                                       canonical=f"{algo.lower()}"))
            store.add_result(gpg, rate("gpg", "libgcrypt", algo.lower(), "encrypt", 1 << 20,
                                       mbps * 3, role="cipher-alone", gpg_algo=algo))
        store.add_result(gpg, Result("gpg", "age", "chacha20-poly1305", "encrypt", 64 << 20,
                                     "error", "", 0.0, extra={"message": "age not installed"}))
        store.finish_run(gpg, "complete")
        adv = store.begin_run("advise", {"for": "ssh", "policy": "modern"}, meta)
        store.add_result(adv, Result("advise", "openssh", "ssh", "advise", None, "bytes_per_s",
                                     "B/s", 1.1e9, extra={
                                         "answer": "Ciphers aes128-gcm@openssh.com",
                                         "bottleneck": "crypto is not your bottleneck",
                                         "config": {"~/.ssh/config": ["Host *",
                                                                      "  Ciphers aes128-gcm@openssh.com"]}}))
        store.finish_run(adv, "complete")
    return ssh, gpg, adv


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One report of the two recorded primitive runs (so with their comparison), and one of
    the real-path and advise runs; built once for the module."""
    tmp = tmp_path_factory.mktemp("report")
    db = tmp / "r.sqlite"
    a, b = load_runs(db)
    ssh, gpg, adv = add_paths(db)
    out = {}
    for name, runs in (("prim", [str(a), str(b)]), ("paths", [str(ssh), str(gpg), str(adv)])):
        html, pngs = tmp / f"{name}.html", tmp / f"{name}-png"
        rc, stdout, err = cli(db, "report", *runs, "-o", str(html), "--png", str(pngs))
        assert rc == 0, err
        out[name] = (html, pngs, stdout)
    out["db"] = db
    return out


# -- data ---------------------------------------------------------------------------------------
def test_bars_take_the_headline_size_and_memcpy_as_ceiling():
    res = [Result("primitive", lib, algo, op, size, "ns_per_op", "ns", ns, ns * 0.9, ns * 1.1)
           for lib, algo, op, size, ns in (
               ("ref", "memcpy", "ref", 16384, 1000.0), ("openssl", "aes-128-gcm", "encrypt",
                                                         16384, 4096.0),
               ("openssl", "aes-128-gcm", "decrypt", 16384, 2048.0),
               ("nettle", "aes-128-gcm", "encrypt", 1024, 512.0),
               ("nettle", "sha256", "hash", 16384, 8192.0))]
    run = Run(7, "run", "2025-03-04T05:06:07+00:00", None, "complete", {},
              {"cpu_model": "Test CPU", "cores": 4, "hypervisor": "KVM"}, "0")
    bars = {b.key: b for b in D.primitive_bars(run, res)}
    assert set(bars) == {"run7-throughput-aead", "run7-throughput-hash"}
    aead = bars["run7-throughput-aead"]
    assert aead.values == {("openssl", "aes-128-gcm"): pytest.approx(4e9)}  # encrypt only
    assert aead.ceiling == pytest.approx(16.384e9)
    assert aead.errors[("openssl", "aes-128-gcm")] == (pytest.approx(4e9 / 1.1),
                                                       pytest.approx(4e9 / 0.9))
    assert "Test CPU, 4 cores, VM (KVM)" in aead.subtitle and "2025-03-04" in aead.subtitle
    lines = {s.key: s for s in D.size_lines(run, res)}
    assert lines["run7-sizes-aead"].lines["aes-128-gcm"]["nettle"] == [(1024, pytest.approx(2e9))]
    assert D.family_of("aes-128-ctr") == "aes" and D.family_of("rc4") == "cipher"
    assert D.family_of("memcpy") is None


# -- the files ----------------------------------------------------------------------------------
URL_IN_ATTR = re.compile(r"""(?:src|href|xlink:href)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


@pytest.mark.parametrize("name", ["prim", "paths"])
def test_html_is_self_contained_and_pngs_match_the_charts(built, name):
    html, pngs, stdout = built[name]
    text = html.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert not URL_IN_ATTR.search(text), URL_IN_ATTR.search(text).group(0)
    assert "<link" not in text and "@import" not in text and "url(http" not in text
    assert not re.search(r"<script[^>]*\bsrc=", text)
    n_svg = len(re.findall(r"<svg\b", text))
    files = sorted(pngs.glob("*.png"))
    assert n_svg == len(files) > 0
    for f in files:
        blob = f.read_bytes()
        assert blob.startswith(PNG_MAGIC) and len(blob) > 5000, f
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert len(ids) == len(set(ids)), "element ids must be unique across inline charts"
    assert f"wrote {html}" in stdout


def test_primitive_report_has_every_family_chart_the_comparison_and_metadata(built):
    html, pngs, _ = built["prim"]
    names = {f.stem for f in pngs.glob("*.png")}
    for fam in ("aead", "aes", "hash"):
        assert {f"run1-throughput-{fam}", f"run1-cycles-{fam}", f"run1-sizes-{fam}"} <= names
    assert "compare-1-2" in names
    text = html.read_text()
    assert "Run 2 against run 1" in text and "libraries.openssl.caps" in text
    assert "AMD EPYC" in text and "OpenSSL 3.0" in text and "vpaes" in text
    assert text.count('class="sortable"') >= 2


def test_paths_report_draws_baselines_and_the_answer(built):
    html, pngs, _ = built["paths"]
    names = {f.stem for f in pngs.glob("*.png")}
    assert {"run3-ssh-transfer", "run4-gpg-encrypt"} <= names
    text = html.read_text()
    assert "cleartext (loopback): baseline" in text       # the ssh chart's baseline bar
    assert "aes256 alone (libgcrypt)" in text              # gpg beside the cipher alone
    assert "age not installed" in text
    assert "Ciphers aes128-gcm@openssh.com" in text and "crypto is not your bottleneck" in text


def test_the_page_opens_with_the_answer_per_task_with_broken_algorithms_marked(built):
    """The first section is the answer of each run from its stored results (the primitive
    run's per-kind answer, the real paths' verdicts), with machine and load, and every
    broken or legacy algorithm it names marked."""
    from cipherbench.report import html_page as H
    prim = built["prim"][0].read_text()
    first = prim.index("<section")
    assert prim[first:].startswith('<section id="answer"><h2>The answer</h2>')
    answer = prim[first:prim.index("</section>", first)]
    assert "fastest sound choice:" in answer and "AEAD" in answer
    assert "Measured on" in answer and "run 1" in answer
    paths = built["paths"][0].read_text()
    answer = paths[paths.index('<section id="answer">'):]
    answer = answer[:answer.index("</section>")]
    assert "ssh transfers" in answer and "Backups with gpg and age" in answer
    assert "crypto is not your bottleneck" in answer       # the advise run's stored answer
    assert H.grade_marker("rc4") == " (broken)" and H.grade_marker("aes-128-gcm") == ""
    assert 'rc4 <span class="mark broken">broken</span>' in H.mark_grades("rc4 is faster")


def test_report_bad_input(built, tmp_path):
    db = built["db"]
    rc, _, err = cli(db, "report", "42", "-o", str(tmp_path / "x.html"))
    assert rc == 2 and err.startswith("cipherbench: error: no run 42")
    rc, _, err = cli(db, "report", "1", "-o", str(tmp_path / "missing" / "x.html"))
    assert rc == 2 and "does not exist" in err
    rc, _, err = cli(tmp_path / "none.sqlite", "report", "-o", str(tmp_path / "x.html"))
    assert rc == 1 and "no results database" in err


# -- a real browser ---------------------------------------------------------------------------
CHECK = """<script>
window.__cbErrors = [];
window.addEventListener('error', function (e) { window.__cbErrors.push(String(e.message)); });
window.addEventListener('load', function () {
  var svgs = document.querySelectorAll('svg'), bad = [];
  svgs.forEach(function (s, i) {
    var r = s.getBoundingClientRect(), b = s.getBBox();
    if (!(r.width > 50 && r.height > 50 && b.width > 0 && b.height > 0)) bad.push(i);
  });
  var sortOk = 'no table';
  var t = document.querySelector('table.sortable');
  if (t) {
    var th = t.tHead.rows[0].cells[7];
    th.click();
    var v = Array.prototype.map.call(t.tBodies[0].rows, function (r) {
      return parseFloat(r.cells[7].getAttribute('data-v')); });
    sortOk = v.every(function (x, i) { return i === 0 || v[i - 1] <= x; }) &&
             th.getAttribute('aria-sort') === 'ascending' ? 'yes' : 'no';
  }
  var m = document.createElement('div');
  m.id = 'cb-check';
  m.setAttribute('data-svgs', String(svgs.length));
  m.setAttribute('data-bad', bad.join(','));
  m.setAttribute('data-errors', window.__cbErrors.join('|'));
  m.setAttribute('data-sorted', sortOk);
  document.body.appendChild(m);
});
</script>"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_browser(exe: str, tmp: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(tmp))
    return subprocess.run([exe, "--headless", "--disable-gpu", "--no-sandbox",
                           "--no-first-run", f"--user-data-dir={tmp / 'profile'}",
                           "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000",
                           *args], capture_output=True, text=True, timeout=90, env=env)


@pytest.mark.skipif(chromium() is None, reason="no headless Chromium here "
                    "(apt-get install chromium to run this test)")
def test_report_renders_in_headless_chromium(built, tmp_path):
    exe = chromium()
    html, _, _ = built["prim"]
    page = tmp_path / "checked.html"
    page.write_text(html.read_text().replace("<head>", "<head>\n" + CHECK, 1))
    dom = run_browser(exe, tmp_path, "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    m = re.search(r'<div id="cb-check" data-svgs="(\d+)" data-bad="([^"]*)" '
                  r'data-errors="([^"]*)" data-sorted="([^"]*)"', dom.stdout)
    assert m, "the check script did not run: " + dom.stderr[-2000:]
    n_svg = len(re.findall(r"<svg\b", html.read_text()))
    assert int(m.group(1)) == n_svg > 0
    assert m.group(2) == "", f"charts with no size: {m.group(2)}"
    assert m.group(3) == "", f"page errors: {m.group(3)}"
    assert m.group(4) == "yes", "clicking a header did not sort the table"
    console = [l for l in dom.stderr.splitlines() if "CONSOLE" in l]
    assert not console, console
    shot = tmp_path / "report.png"
    res = run_browser(exe, tmp_path, f"--screenshot={shot}", "--window-size=1280,2400",
                      "--hide-scrollbars", html.as_uri())
    assert res.returncode == 0 and shot.exists(), res.stderr[-2000:]
    assert shot.read_bytes().startswith(PNG_MAGIC) and shot.stat().st_size > 50_000
    keep = os.environ.get("CIPHERBENCH_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)
