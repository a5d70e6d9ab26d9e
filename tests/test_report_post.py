# SPDX-License-Identifier: GPL-3.0-or-later
"""``report --chart``: the release-post charts, their coherent evidence (one library version,
hardware state, core build and machine per series; the runs named), the log axis's ticks and
the command's bad input."""
from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench.report import evidence as E
from cipherbench.report import post
from cipherbench.store import Result, Run, Store
from test_compare import cli

pytest.importorskip("matplotlib")
from cipherbench.report import dots  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SIZE = 16384


def meta(versions: dict[str, str], host: str = "box", hw_off: list[str] | None = None,
         load: float = 0.4) -> dict:
    return {"hostname": host, "cpu_model": "Test CPU", "cores": 4, "hypervisor": "none",
            "core_version": "0.1.0", "core_compiler": "gcc 12", "core_cflags": "-O3",
            "hw_disabled": hw_off or [], "threads": 1, "loadavg": load, "cpu_share": 0.97,
            "libraries": {lib: {"version": v} for lib, v in versions.items()}}


def res(lib: str, algo: str, gbps: float, op: str = "hash", size: int = SIZE,
        run_id: int | None = None) -> Result:
    ns = size / gbps
    return Result("primitive", lib, algo, op, size, "ns_per_op", "ns", ns, ns * 0.99, ns * 1.01,
                  10, 0.01, run_id=run_id)


def mkrun(rid: int, m: dict, status: str = "complete", day: int = 1) -> Run:
    """Run ``rid`` at 10:``rid`` on January ``day`` (runs of one day: one session)."""
    return Run(rid, "run", f"2026-01-{day:02d}T10:{rid:02d}:00+00:00",
               f"2026-01-{day:02d}T10:{rid:02d}:30+00:00", status, {}, m, "0")


def with_ids(run: Run, results: list[Result]) -> tuple[Run, list[Result]]:
    for r in results:
        r.run_id = run.id
    return run, results


# -- evidence ---------------------------------------------------------------------------------
def two_versions() -> list[tuple[Run, list[Result]]]:
    """libgcrypt 1.10.1 and nettle 3.8 in run 1; libgcrypt 1.11.0 alone in run 2."""
    return [with_ids(mkrun(1, meta({"libgcrypt": "1.10.1", "nettle": "3.8"})),
                     [res("libgcrypt", "sha256", 1.0), res("libgcrypt", "md5", 0.7),
                      res("nettle", "sha256", 1.1)]),
            with_ids(mkrun(2, meta({"libgcrypt": "1.11.0"})),
                     [res("libgcrypt", "sha256", 1.4), res("libgcrypt", "md5", 0.72)])]


def test_named_runs_draw_two_versions_of_a_library_side_by_side():
    ev = E.gather(two_versions(), lambda r: True, named=True)
    labels = [s.label() for s in ev.series]
    assert labels == ["libgcrypt 1.10.1 (run 1)", "libgcrypt 1.11.0 (run 2)", "nettle 3.8 (run 1)"]
    old, new = ev.series[0], ev.series[1]
    assert old.cells[("sha256", "hash")].median == pytest.approx(SIZE / 1.0)
    assert new.cells[("sha256", "hash")].median == pytest.approx(SIZE / 1.4)
    assert ev.left_out == []


def test_without_named_runs_only_each_librarys_newest_setting_is_drawn_and_the_older_named():
    ev = E.gather(two_versions(), lambda r: True, named=False)
    assert [s.label() for s in ev.series] == ["libgcrypt 1.11.0 (run 2)", "nettle 3.8 (run 1)"]
    assert any("libgcrypt 1.10.1" in x and "run 1" in x and "name the runs" in x
               for x in ev.left_out)


def test_a_later_partial_run_does_not_hide_an_earlier_complete_one():
    m = meta({"openssl": "3.0.19"})
    runs = [with_ids(mkrun(1, m), [res("openssl", "sha256", 1.0), res("openssl", "sha512", 0.8),
                                   res("openssl", "md5", 0.7)]),
            with_ids(mkrun(2, m, status="interrupted"), [res("openssl", "sha256", 1.2)])]
    ev = E.gather(runs, lambda r: True)
    (s,) = ev.series
    assert set(s.cells) == {("sha256", "hash"), ("sha512", "hash"), ("md5", "hash")}
    assert s.cells[("sha256", "hash")].run_id == 2      # the newest measurement of the cell
    assert s.cells[("md5", "hash")].run_id == 1
    assert s.runs == [1, 2]


def test_results_of_another_version_core_build_or_hardware_state_never_share_a_series():
    base = meta({"openssl": "3.0.19"})
    other_core = dict(base, core_compiler="clang 16")
    off = meta({"openssl": "3.0.19"}, hw_off=["aes", "pclmul"])
    runs = [with_ids(mkrun(1, base), [res("openssl", "sha256", 1.0)]),
            with_ids(mkrun(2, other_core), [res("openssl", "sha256", 1.3)]),
            with_ids(mkrun(3, off), [res("openssl", "sha256", 0.4)])]
    ev = E.gather(runs, lambda r: True, named=True, hw="any")
    assert len(ev.series) == 3
    assert all(len(s.runs) == 1 for s in ev.series)
    ev = E.gather(runs, lambda r: True, named=True, hw="on")   # a chart of hardware on
    assert sorted(s.runs[0] for s in ev.series) == [1, 2]
    assert any("run 3" in x and "features off" in x for x in ev.left_out)


def test_named_runs_of_two_machines_are_refused_and_unnamed_ones_left_out():
    runs = [with_ids(mkrun(1, meta({"openssl": "3.0.19"}, host="a")),
                     [res("openssl", "sha256", 1.0)]),
            with_ids(mkrun(2, meta({"openssl": "3.0.19"}, host="b")),
                     [res("openssl", "sha256", 2.0)])]
    with pytest.raises(E.MixedMachines, match="run 1 from .*host a.*run 2 from .*host b"):
        E.gather(runs, lambda r: True, named=True)
    ev = E.gather(runs, lambda r: True)
    assert ev.machine.hostname == "b" and [s.runs for s in ev.series] == [[2]]
    assert ev.left_out == ["run 1: measured on another machine (name the runs of one machine "
                           "to draw them)"]


def hw_runs(remote: dict) -> list[tuple[Run, list[Result]]]:
    """Issue 26 case 11: run 1 and its --no-hw twin run 2 on this machine; run 3 a `run --host`
    of another machine whose host name and CPU are the same, measured later (or a clone whose
    machine identity differs)."""
    local = meta({"openssl": "3.0.19"})
    if "machine_id" in remote:
        local["machine_id"] = "a" * 16
    return [with_ids(mkrun(1, local), [res("openssl", "aes-128-gcm", 8.0, "encrypt"),
                                       res("openssl", "chacha20-poly1305", 1.5, "encrypt")]),
            with_ids(mkrun(2, dict(local, hw_disabled=["aes", "pclmul"])),
                     [res("openssl", "aes-128-gcm", 0.5, "encrypt"),
                      res("openssl", "chacha20-poly1305", 1.4, "encrypt")]),
            with_ids(mkrun(3, dict(local, **remote)),
                     [res("openssl", "chacha20-poly1305", 0.52, "encrypt")])]


@pytest.mark.parametrize("remote", [{"host": "me@vm"},
                                    {"machine_id": "b" * 16}])
def test_a_run_of_another_machine_with_the_same_host_name_never_joins_a_local_series(remote):
    chart, ev = post.build("aes-hw", hw_runs(remote), SIZE)
    (panel,) = chart.panels
    d = panel.dots[("chacha20-poly1305", "openssl")]
    assert d.value / d.off == pytest.approx(1.5 / 1.4)          # never 0.52 / 1.4 = 0.37x
    assert 3 not in d.runs and [r.id for r in ev.runs] == [1, 2]
    assert any("run 3" in x and "another machine" in x for x in ev.left_out)
    with pytest.raises(E.MixedMachines):
        post.build("aes-hw", hw_runs(remote), SIZE, named=True)


def test_a_run_through_ssh_names_its_host_and_compare_calls_it_another_machine():
    runs = hw_runs({"host": "me@vm"})
    assert "through ssh (run --host me@vm)" in E.Machine.of(runs[2][0]).text()
    from cipherbench import compare as C
    cmp = C.compare_runs(runs[0][0], runs[0][1], runs[2][0], runs[2][1])
    assert [m.what for m in cmp.mismatches] == ["machine"]
    assert "through ssh to me@vm" in cmp.mismatches[0].b
    assert cmp.noise_floor is None and any("compared as machines" in n for n in cmp.notes)


def test_without_named_runs_the_chart_takes_the_newest_session_and_names_it():
    m = meta({"openssl": "3.0.19"})
    runs = [with_ids(mkrun(1, dict(m, loadavg=6.0), day=1), [res("openssl", "sha256", 0.6)]),
            with_ids(mkrun(2, dict(m, loadavg=19.0), day=2), [res("openssl", "sha1", 0.5)]),
            with_ids(mkrun(3, dict(m, loadavg=0.3), day=3), [res("openssl", "sha256", 1.0)]),
            with_ids(mkrun(4, dict(m, loadavg=0.5), day=3), [res("openssl", "md5", 0.8)])]
    ev = E.gather(runs, lambda r: True)
    assert [r.id for r in ev.runs] == [3, 4]
    assert set(ev.series[0].cells) == {("sha256", "hash"), ("md5", "hash")}
    assert ev.session.startswith("runs 3, 4, one session: 2026-01-03 10:03 to 10:04")
    assert "load average 0.3-0.5" in ev.session
    assert any(x.startswith("runs 1, 2: another session") for x in ev.left_out)
    # a busier run in the same hour is another session too
    runs[3] = with_ids(mkrun(4, dict(m, loadavg=7.0), day=3), [res("openssl", "md5", 0.8)])
    ev = E.gather(runs, lambda r: True)
    assert [r.id for r in ev.runs] == [4]
    chart, _ = post.build("hashes", runs, SIZE)
    assert "run 4, one session" in chart.subtitle


def test_sessions_cut_on_time_and_load():
    m = meta({"openssl": "3.0.19"})
    runs = [(mkrun(i, dict(m, loadavg=load), day=day), []) for i, load, day in
            ((1, 0.2, 1), (2, 0.9, 1), (3, 3.5, 1), (4, 3.0, 1), (5, 3.1, 2))]
    assert [[r.id for r, _ in s] for s in E.sessions(runs)] == [[1, 2], [3, 4], [5]]


def test_a_running_run_is_drawn_only_when_named():
    runs = [with_ids(mkrun(1, meta({"openssl": "3.0.19"}), status="running"),
                     [res("openssl", "sha256", 1.0)])]
    assert E.gather(runs, lambda r: True) is None
    assert E.gather(runs, lambda r: True, named=True) is not None


def test_short_versions_and_natural_order():
    s = E.Setting("openssl", "OpenSSL 3.0.19 27 Jan 2026", (), "", 1)
    assert s.short_version == "3.0.19" and s.label() == "openssl 3.0.19"
    assert E.Setting("botan", "Botan 2.19.3 (unreleased, revision unknown)", ("aes",), "",
                     1).label() == "botan 2.19.3, hw off: aes"
    assert sorted(["1.10.1", "1.9.4", "1.11.0"], key=E.version_key) == ["1.9.4", "1.10.1",
                                                                        "1.11.0"]


# -- the charts' data -------------------------------------------------------------------------
def test_hash_chart_rows_by_family_legend_with_versions_and_runs():
    chart, ev = post.build("hashes", two_versions(), SIZE, named=True)
    (panel,) = chart.panels
    assert panel.rows == ["md5", "sha256"]                 # HASH_ORDER, not measured order
    assert [s.label for s in chart.series] == ["libgcrypt 1.10.1 (run 1)",
                                               "libgcrypt 1.11.0 (run 2)", "nettle 3.8 (run 1)"]
    assert [s.variant for s in chart.series] == [0, 1, 0]  # the second version: another marker
    assert "Hash functions" in chart.title and "16 KiB" in chart.title
    assert "Test CPU, 4 cores, host box; runs 1, 2" in chart.subtitle
    assert "load average 0.4" in chart.subtitle
    assert panel.dots[("sha256", "1")].value == pytest.approx(1.4e9)


def test_one_source_keeps_the_runs_out_of_the_legend_but_in_the_subtitle():
    m = meta({"openssl": "3.0.19", "nettle": "3.8"})
    runs = [with_ids(mkrun(4, m), [res("openssl", "sha256", 1.0), res("nettle", "sha256", 1.1)])]
    chart, _ = post.build("hashes", runs, SIZE)
    assert [s.label for s in chart.series] == ["openssl 3.0.19", "nettle 3.8"]
    assert "run 4, one session: 2026-01-01 10:04" in chart.subtitle


def test_aes_modes_panels_share_their_rows():
    m = meta({"openssl": "3.0.19"})
    rs = [res("openssl", a, 4.0, "encrypt") for a in ("aes-128-gcm", "aes-128-cbc",
                                                      "aes-256-ctr", "aes-256-gcm")]
    chart, _ = post.build("aes-modes", [with_ids(mkrun(1, m), rs)], SIZE)
    assert [p.title for p in chart.panels] == ["AES-128", "AES-256"]
    assert all(p.rows == ["cbc", "ctr", "gcm"] for p in chart.panels)
    assert ("ctr", "0") not in chart.panels[0].dots and ("ctr", "0") in chart.panels[1].dots


def test_aes_modes_leave_out_the_tls_record_ciphers_and_keep_every_real_mode_in_order():
    m = meta({"openssl": "3.0.19"})
    rs = [res("openssl", a, 4.0, "encrypt") for a in (
        "aes-128-cbc-hmac-sha1", "aes-128-kwp-inv", "aes-128-ccm-8", "aes-128-kw-inv",
        "aes-128-ccm", "aes-128-cbc", "aes-128-cbc-hmac-sha256")]
    chart, _ = post.build("aes-modes", [with_ids(mkrun(1, m), rs)], SIZE)
    assert chart.panels[0].rows == ["cbc", "ccm", "ccm-8", "kw-inv", "kwp-inv"]


def test_aes_hw_pairs_each_library_with_itself_switched_off():
    on = meta({"openssl": "3.0.19", "cryptopp": "8.7.0"})
    off = meta({"openssl": "3.0.19"}, hw_off=["aes", "pclmul"])
    runs = [with_ids(mkrun(1, on), [res("openssl", "aes-128-gcm", 8.0, "encrypt"),
                                    res("cryptopp", "aes-128-gcm", 6.0, "encrypt"),
                                    res("openssl", "sha256", 2.0)]),
            with_ids(mkrun(2, off), [res("openssl", "aes-128-gcm", 0.5, "encrypt")])]
    chart, ev = post.build("aes-hw", runs, SIZE)
    (panel,) = chart.panels
    assert panel.title == "openssl 3.0.19 (runs 1, 2)" and chart.pairs
    d = panel.dots[("aes-128-gcm", "openssl")]
    assert d.value / d.off == pytest.approx(16.0)
    assert "aes, pclmul" in chart.off_label
    assert any("cryptopp 8.7.0" in x and "features off" in x for x in ev.left_out)
    assert any("cryptopp" in n for n in chart.notes)


def test_nothing_to_draw_says_what_to_run_and_which_sizes_exist():
    m = meta({"openssl": "3.0.19"})
    runs = [with_ids(mkrun(1, m), [res("openssl", "sha256", 1.0, size=1024)])]
    with pytest.raises(post.NothingToDraw, match=r"at 1 KiB: choose one with --headline-size"):
        post.build("hashes", runs, SIZE)
    with pytest.raises(post.NothingToDraw, match=r"cipherbench run --hw-both"):
        post.build("aes-hw", runs, SIZE)


# -- drawing ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lo,hi", [(3e7, 2e10), (4e8, 1.3e9), (1e6, 1e11), (7.4e8, 1.35e9)])
def test_log_axis_has_several_labelled_ticks(lo, hi):
    tk = dots.ticks(lo, hi, at_most=10)
    assert 3 <= len(tk) <= 10, tk
    assert all(lo <= t <= hi for t in tk) and tk == sorted(tk)
    labels = [dots.rate_text(t) for t in tk]
    assert len(set(labels)) == len(labels)


def test_rate_text():
    assert [dots.rate_text(v) for v in (5e7, 1e9, 1.5e9, 2e10, 300)] == [
        "50 MB/s", "1 GB/s", "1.5 GB/s", "20 GB/s", "300 B/s"]


def test_dots_that_would_cover_each_other_are_moved_apart():
    items = [(0.0, 0.0), (0.001, 0.001), (0.002, 0.002), (1.0, 1.0)]
    slots = dots._place(items, gap=0.05)
    assert slots[3] == 0 and len(set(slots[:3])) == 3
    for i in range(len(items)):
        for j in range(i):
            if slots[i] == slots[j]:
                assert abs(items[i][0] - items[j][0]) >= 0.05


def test_every_chart_draws():
    on = meta({"openssl": "3.0.19", "libgcrypt": "1.10.1"})
    off = meta({"openssl": "3.0.19", "libgcrypt": "1.10.1"}, hw_off=["aes"])
    rs = []
    for lib, f in (("openssl", 1.0), ("libgcrypt", 1.3)):
        rs += [res(lib, a, f * g, "encrypt") for a, g in (("aes-128-ecb", 9), ("aes-256-gcm", 5),
                                                          ("camellia-128-ecb", 0.2),
                                                          ("chacha20", 1.1))]
        rs += [res(lib, "sha256", f * 1.8), res(lib, "md5", f * 0.7), res(lib, "crc32", 9.0)]
    rs_off = [res(lib, "aes-256-gcm", 0.3, "encrypt") for lib in ("openssl", "libgcrypt")]
    runs = [with_ids(mkrun(1, on), rs), with_ids(mkrun(2, off), rs_off)]
    from cipherbench.report import postbars
    for name in post.CHARTS:
        for style in post.STYLES:
            chart, _ = post.build(name, runs, SIZE, opts=post.ChartOptions(style=style))
            fig = postbars.render(chart)
            texts = [t.get_text() for t in fig.texts]
            assert chart.title in texts
            # read at 800 px wide: about 8 inches at 100 dpi
            assert 5 < fig.get_figwidth() <= 8.6 and fig.get_figheight() > 2
            fig.clear()


# -- the command ------------------------------------------------------------------------------
@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "r.sqlite"
    with Store.open(path) as store:
        for m, rs in ((meta({"libgcrypt": "1.10.1", "nettle": "3.8"}),
                       [res("libgcrypt", "sha256", 1.0), res("nettle", "sha256", 1.1),
                        res("libgcrypt", "aes-128-gcm", 5.0, "encrypt")]),
                      (meta({"libgcrypt": "1.11.0"}), [res("libgcrypt", "sha256", 1.4)])):
            rid = store.begin_run("run", {}, m)
            for r in rs:
                store.add_result(rid, r)
            store.finish_run(rid, "complete")
    return path


def test_chart_command_writes_a_png_named_after_the_chart(db, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli(db, "report", "--chart", "hashes")
    assert rc == 0, err
    png = tmp_path / "hashes-16KiB.png"
    assert png.read_bytes().startswith(PNG_MAGIC) and png.stat().st_size > 10000
    assert out.startswith("wrote hashes-16KiB.png and hashes-16KiB.csv (hashes: 2 series from "
                          "runs 1, 2)")
    assert "libgcrypt 1.10.1" in err and "older setting" in err   # left out, and said so


def test_chart_command_named_runs_and_svg(db, tmp_path):
    svg = tmp_path / "v.svg"
    rc, out, err = cli(db, "report", "--chart", "hashes", "1", "2", "-o", str(svg),
                       "--lib", "libgcrypt")
    assert rc == 0, err
    text = svg.read_text()
    assert text.startswith("<svg") and "libgcrypt 1.10.1 (run 1)" in text
    assert "libgcrypt 1.11.0 (run 2)" in text and "nettle" not in text


@pytest.mark.parametrize("args,code,message", [
    (["--chart", "hash"], 2, "unknown chart 'hash' (did you mean hashes"),
    (["--chart", "hashes", "--png", "d"], 2, "with --chart name the image with -o FILE.png"),
    (["--chart", "hashes", "-o", "x.jpg"], 2, "name a .png or .svg file"),
    (["--chart", "hashes", "--op", "encrypt"], 2, "the hashes chart shows hash"),
    (["--op", "decrypt"], 2, "--op chooses what --chart draws"),
    (["--chart", "ecb"], 1, "measure them with `cipherbench run --algo '*-ecb' --op encrypt`"),
    (["--chart", "aes-hw"], 1, "cipherbench run --hw-both"),
])
def test_chart_command_bad_input(db, tmp_path, monkeypatch, args, code, message):
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli(db, "report", *args)
    assert rc == code and message in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.png"))


def test_the_page_holds_the_post_charts_its_runs_can_draw(db, tmp_path):
    html, pngs = tmp_path / "p.html", tmp_path / "png"
    rc, out, err = cli(db, "report", "1", "2", "-o", str(html), "--png", str(pngs))
    assert rc == 0, err
    names = {f.stem for f in pngs.glob("*.png")}
    assert {"overview-hashes-16KiB", "overview-aes-modes-16KiB"} <= names
    assert "overview-ecb-16KiB" not in names and "overview-aes-hw-16KiB" not in names
    assert (pngs / "overview-hashes-16KiB.csv").read_text().startswith("chart,panel,row,")
    text = html.read_text()
    assert "libgcrypt 1.10.1 (run 1)" in text and "libgcrypt 1.11.0 (run 2)" in text


# -- what a post needs: factors, capped outliers, stream ciphers, rows, hollow series, CSV -------
def test_the_older_version_is_the_reference_and_every_other_dot_carries_its_factor():
    chart, _ = post.build("hashes", two_versions(), SIZE, named=True)
    (panel,) = chart.panels
    ref = next(s for s in chart.series if s.baseline)
    assert ref.label == "libgcrypt 1.10.1 (run 1)" and chart.baseline == ref.key
    new = panel.dots[("sha256", "1")]
    assert new.factor == pytest.approx(1.4) and not new.factor_unsure
    assert panel.dots[("md5", "1")].factor == pytest.approx(0.72 / 0.7)
    assert not panel.dots[("md5", "1")].factor_unsure        # 2.9% apart, +-1% each: told apart
    assert panel.dots[("sha256", "0")].factor is None        # the reference itself
    assert any("over libgcrypt 1.10.1's" in n for n in chart.notes)
    fig = dots.draw(chart)
    texts = [t.get_text() for a in fig.axes for t in a.texts]
    assert "1.4\u00d7" in texts and "1.03\u00d7" in texts and "1.1\u00d7" in texts
    fig.clear()


def test_baseline_chosen_by_name_or_library_and_refused_when_unknown():
    chart, _ = post.build("hashes", two_versions(), SIZE, named=True,
                          opts=post.ChartOptions(baseline="nettle"))
    (panel,) = chart.panels
    assert panel.dots[("sha256", "1")].factor == pytest.approx(1.4 / 1.1)
    with pytest.raises(post.BadBaseline, match="names 2 series"):
        post.build("hashes", two_versions(), SIZE, named=True,
                   opts=post.ChartOptions(baseline="libgcrypt"))
    with pytest.raises(post.BadBaseline, match="its series: libgcrypt 1.10.1; libgcrypt 1.11"):
        post.build("hashes", two_versions(), SIZE, named=True,
                   opts=post.ChartOptions(baseline="openssl"))


def ecb_runs() -> list[tuple[Run, list[Result]]]:
    m = meta({"openssl": "3.0.19", "nettle": "3.8"})
    rs = []
    for lib, f in (("openssl", 1.0), ("nettle", 0.8)):
        rs += [res(lib, a, g * f, "encrypt") for a, g in (
            ("aes-128-ecb", 12.0), ("camellia-128-ecb", 0.15), ("des-ecb", 0.05),
            ("3des-ecb", 0.03), ("blowfish-ecb", 0.12), ("cast5-ecb", 0.11))]
    rs += [res("openssl", "chacha20", 1.6, "encrypt"), res("nettle", "chacha20", 1.0, "encrypt"),
           res("nettle", "salsa20", 0.9, "encrypt"), res("openssl", "rc4", 0.5, "encrypt"),
           res("nettle", "rc4", 0.6, "encrypt"), res("openssl", "aes-128-ctr", 5.0, "encrypt")]
    return [with_ids(mkrun(1, m), rs)]


def test_an_outlier_is_capped_and_named_and_the_rest_drawn_on_a_linear_axis():
    chart, _ = post.build("ecb", ecb_runs(), SIZE)
    ax = chart.axis
    assert not ax.log and ax.lo == 0 and ax.cap is not None and 0.15e9 < ax.cap < 0.5e9
    assert ax.capped == ["aes-128-ecb 12 GB/s (openssl 3.0.19)",
                         "aes-128-ecb 9.6 GB/s (nettle 3.8)"]
    assert any(n.startswith("capped") and "aes-128-ecb 12 GB/s" in n for n in chart.notes)
    fig = dots.draw(chart)
    (axes,) = fig.axes
    assert axes.get_xscale() == "linear" and axes.get_xlim()[1] < 1e9
    assert "12 GB/s" in [t.get_text() for t in axes.texts]     # the capped value, written
    fig.clear()
    # a log axis holds everything: nothing capped
    chart, _ = post.build("ecb", ecb_runs(), SIZE, opts=post.ChartOptions(axis="log"))
    assert chart.axis.log and chart.axis.cap is None and not chart.axis.capped


def test_the_ciphers_chart_puts_the_stream_ciphers_beside_the_block_ciphers():
    chart, _ = post.build("ciphers", ecb_runs(), SIZE, opts=post.ChartOptions(all_rows=True,
                                                                              style="bars"))
    assert [p.title for p in chart.panels] == ["block ciphers in ECB", "stream ciphers"]
    assert chart.axis.capped[0].startswith("aes-128-ecb 12 GB/s")   # bars: capped, linear
    assert chart.axis.cap == pytest.approx(2e9) and any(n.startswith("each bar")
                                                       for n in chart.notes)
    assert chart.panels[1].rows == ["chacha20", "rc4", "salsa20"]
    assert "aes-128-ctr" not in [r for p in chart.panels for r in p.rows]   # a mode, not a stream
    assert "stream ciphers" in chart.title
    assert post.is_stream("xsalsa20") and not post.is_stream("aes-128-cfb8")


def test_charts_default_to_the_rows_two_series_have():
    chart, _ = post.build("ciphers", ecb_runs(), SIZE)
    assert chart.panels[1].rows == ["chacha20", "rc4"]          # salsa20: nettle only
    assert any("measured by one series only (--all draws them): salsa20" in n
               for n in chart.notes)


def test_checksums_are_apart_from_the_hashes():
    m = meta({"libgcrypt": "1.10.1", "nettle": "3.8"})
    rs = [res(lib, a, g) for lib in ("libgcrypt", "nettle")
          for a, g in (("sha256", 0.4), ("md5", 0.7), ("crc32", 13.0))]
    runs = [with_ids(mkrun(1, m), rs)]
    hashes, _ = post.build("hashes", runs, SIZE)
    assert hashes.panels[0].rows == ["md5", "sha256"]
    crc, _ = post.build("checksums", runs, SIZE)
    assert crc.panels[0].rows == ["crc32"] and "not hashes" in crc.title


def test_a_series_with_wide_intervals_is_hollow_with_a_note():
    m = meta({"openssl": "3.0.19", "nettle": "3.8"})
    wide = [res("openssl", a, g) for a, g in (("sha256", 1.0), ("md5", 0.8))]
    for r in wide:
        r.ci_low, r.ci_high = r.median * 0.6, r.median * 1.7
    runs = [with_ids(mkrun(1, m), wide + [res("nettle", "sha256", 1.1),
                                          res("nettle", "md5", 0.7)])]
    chart, _ = post.build("hashes", runs, SIZE)
    by = {s.label: s for s in chart.series}
    assert by["openssl 3.0.19"].unreliable and not by["nettle 3.8"].unreliable
    assert any(n.startswith("hollow: openssl 3.0.19") and "wider than \u00b110%" in n
               for n in chart.notes)
    chart, _ = post.build("hashes", runs, SIZE, opts=post.ChartOptions(max_interval=0.9))
    assert not any(s.unreliable for s in chart.series)


def test_the_caption_names_machine_versions_and_the_measuring_command():
    m = dict(meta({"openssl": "OpenSSL 3.0.19 27 Jan 2026"}), os="Debian GNU/Linux 12")
    run = mkrun(1, m)
    run.args = {"preset": "quick", "sizes": [16384], "precision": 0.02, "budget_s": 0.3}
    chart, _ = post.build("hashes", [with_ids(run, [res("openssl", "sha256", 1.0)])], SIZE)
    text = "\n".join(chart.caption)
    assert "machine: Test CPU, 4 cores, host box, Debian GNU/Linux 12" in text
    assert "versions: openssl OpenSSL 3.0.19 27 Jan 2026; cipherbench-core 0.1.0 gcc 12" in text
    assert "run 1: cipherbench run --quick --sizes 16KiB --precision 2% --budget 0.3" in text


def test_chart_command_writes_the_numbers_as_csv_beside_the_image(db, tmp_path):
    import csv
    png = tmp_path / "h.png"
    rc, out, err = cli(db, "report", "--chart", "hashes", "1", "2", "-o", str(png),
                       "--style", "bars")
    assert rc == 0, err
    rows = list(csv.DictReader((tmp_path / "h.csv").open()))
    by = {(r["row"], r["series"]): r for r in rows}
    new = by[("sha256", "libgcrypt 1.11.0 (run 2)")]
    assert float(new["bytes_per_s"]) == pytest.approx(1.4e9, rel=1e-4)
    assert float(new["factor"]) == pytest.approx(1.4, rel=1e-4)
    assert new["reference"] == "libgcrypt 1.10.1 (run 1)" and new["runs"] == "2"
    assert png.read_bytes().startswith(PNG_MAGIC)
    rc, out, err = cli(db, "report", "--chart", "hashes", "1", "2", "-o", str(png),
                       "--baseline", "openssl")
    assert rc == 2 and "--baseline openssl: no such series" in err
    rc, out, err = cli(db, "report", "--chart", "hashes", "--style", "bars", "--axis", "log")
    assert rc == 2 and "linear axis" in err
    rc, out, err = cli(db, "report", "--baseline", "nettle")
    assert rc == 2 and "--baseline chooses what --chart draws" in err


def test_aes_modes_keep_the_modes_two_series_have_and_their_panels_lined_up():
    m = meta({"openssl": "3.0.19", "nettle": "3.8"})
    rs = [res(lib, a, 2.0, "encrypt") for lib in ("openssl", "nettle")
          for a in ("aes-128-gcm", "aes-256-gcm", "aes-128-ctr")]
    rs += [res("openssl", "aes-128-cfb1", 0.01, "encrypt"), res("nettle", "aes-256-ctr", 3.0,
                                                                "encrypt")]
    chart, _ = post.build("aes-modes", [with_ids(mkrun(1, m), rs)], SIZE)
    assert [p.rows for p in chart.panels] == [["ctr", "gcm"], ["ctr", "gcm"]]
    assert any("one series only (--all draws them): cfb1" in n for n in chart.notes)


def test_one_machine_by_its_identity_whatever_its_host_name_and_across_the_old_runs():
    from cipherbench.machine.coherence import machine_identity as ident
    base = meta({"openssl": "3.0.19"})
    old = mkrun(1, base)                                        # stored before machine_id
    new = mkrun(2, dict(base, machine_id="a" * 16))
    renamed = mkrun(3, dict(base, machine_id="a" * 16, hostname="box2"))
    clone = mkrun(4, dict(base, machine_id="b" * 16))
    assert ident(old) == ident(new) and ident(new) == ident(renamed)
    assert ident(new) != ident(clone)                          # same host name, another machine
    assert ident(old) != ident(mkrun(5, dict(base, hostname="box2")))
    assert len({ident(r) for r in (new, renamed)}) == 1
