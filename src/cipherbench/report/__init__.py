# SPDX-License-Identifier: GPL-3.0-or-later
"""Reports: one offline HTML file with charts, and the same charts as PNGs.

    from cipherbench.report import build, write_html, write_pngs
    rep = build(bundles)              # bundles: export.RunBundle of each run, in order
    write_html(rep, "report.html")
    write_pngs(rep, "charts/")        # one PNG per chart, named after the chart
    rep.close()

What a report holds, per run: the machine and library metadata; for primitive runs, per
algorithm family, throughput bars at 16 KiB with memcpy's ceiling, cycles/byte bars and
throughput against message size; for real paths (ssh, gpg, tls) each cipher against its
baselines; for an ``advise`` run its answer; when given exactly two runs that share
results, their comparison (``cipherbench.compare``); and the release-post charts
(``post``: hashes, ECB ciphers, AES modes, hardware on/off) that the primitive runs can draw,
from coherent evidence (``evidence``). Every per-run chart has a sortable table of the
numbers behind it.

An ``advise`` run is shown from what it stores: ``run.args`` (target, policy), and for each
result the ``extra`` keys ``answer`` (a sentence), ``bottleneck`` (a sentence) and ``config``
(a list of lines, or a mapping of file name to lines); results without them are listed.

``data`` and ``post`` extract (pure), ``charts`` and ``dots`` draw (matplotlib), ``html``
writes the page.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import partial
from html import escape
from pathlib import Path
from typing import Any, Callable, Sequence

from cipherbench import compare as cmpmod
from cipherbench.advise.fleet import MachineAnswer
from cipherbench.display.format import format_run_header
from cipherbench.export import RunBundle
from cipherbench.report import data as D
from cipherbench.report import html_page as H

#: Commands whose runs hold real-path results.
PATH_COMMANDS = ("ssh", "gpg", "tls")
#: At most this many entries go into the comparison chart (the table has them all).
COMPARE_CHART_MAX = 60


@dataclass
class Chart:
    """One chart: a file-name stem, a caption and the figure (drawn once, written twice)."""

    key: str
    caption: str
    figure: Any
    csv: str | None = None      # the numbers behind it, written beside its PNG


@dataclass
class Section:
    """A part of the page: heading, free HTML, charts, tables."""

    id: str
    title: str
    parts: list[str] = field(default_factory=list)  # HTML, with {chart:key} placeholders
    charts: list[Chart] = field(default_factory=list)


@dataclass
class Report:
    """Sections in page order and the runs they come from."""

    title: str
    subtitle: str
    sections: list[Section]

    @property
    def charts(self) -> list[Chart]:
        """Every chart, in page order."""
        return [c for s in self.sections for c in s.charts]

    def close(self) -> None:
        """Free every figure."""
        from cipherbench.report import charts as C
        for c in self.charts:
            C.close(c.figure)


def _add(section: Section, key: str, caption: str, draw: Callable[[], Any],
         csv: str | None = None) -> None:
    section.charts.append(Chart(key, caption, draw(), csv))
    section.parts.append("{chart:" + key + "}")


def _machine_section(bundles: list[RunBundle]) -> Section:
    sec = Section("machine", "Machine and libraries")
    for b in bundles:
        m = b.run.metadata
        facts = format_run_header(b.run)
        extra = [("host", str(m.get("hostname", ""))), ("os", str(m.get("os", ""))),
                 ("governor", str(m.get("governor") or "none (no cpufreq)")),
                 ("load at start", f"{m.get('loadavg'):.2f}" if isinstance(m.get("loadavg"),
                                                                     (int, float)) else "?")]
        sec.parts.append(f"<h3>Run {b.run.id}: {escape(b.run.command)}, "
                         f"{escape(b.run.started_at)}</h3>")
        sec.parts.append(H.pairs(facts[:7] + extra))
        libs = [(name, info) for name, info in (m.get("libraries") or {}).items()
                if name != D.REF_LIB]
        if libs:
            rows = [[(n, n), (str(i.get("version", "")), str(i.get("version", ""))),
                     (", ".join(i.get("caps") or []) or "none reported", ""),
                     (str(i.get("provider") or ""), "")]
                    for n, i in sorted(libs, key=lambda x: D.lib_sort_key(x[0]))]
            sec.parts.append(H.table(["library", "version", "capabilities",
                                      "implementation it picked"], rows))
        if b.run.args:
            args = ", ".join(f"{k}={v}" for k, v in sorted(b.run.args.items())
                             if k not in ("algos", "libs"))
            sec.parts.append(f"<p class=muted>arguments: {escape(args)}</p>")
    return sec


def _machine_name(run) -> str:
    """The machine a section's run was measured on, by name: the ``run --host`` destination,
    else the host name."""
    m = run.metadata
    return str(m.get("host") or m.get("hostname") or "?")


def _primitive_section(b: RunBundle, headline: int) -> Section | None:
    from cipherbench.report import charts as C
    table = D.primitive_table(b.results)
    if table is None:
        return None
    sec = Section(f"primitives-{b.run.id}",
                  f"Primitives (run {b.run.id}, {_machine_name(b.run)})")
    sec.parts.append(f"<p class=muted>{escape(D.machine_line(b.run))}. Bars show the median of "
                     "each point with its 95% interval; the ceiling is memcpy of the same "
                     "buffer (the memory's speed, no cipher can beat it).</p>")
    bars = {x.key.rsplit("-", 1)[1]: x for x in D.primitive_bars(b.run, b.results, headline)}
    cycles = {x.key.rsplit("-", 1)[1]: x for x in D.cycles_bars(b.run, b.results)}
    lines = {x.key.rsplit("-", 1)[1]: x for x in D.size_lines(b.run, b.results)}
    for fam, fam_title in D.FAMILIES:
        if fam not in bars and fam not in lines:
            continue
        sec.parts.append(f"<h3>{escape(fam_title)}</h3>")
        if fam in bars:
            _add(sec, bars[fam].key, bars[fam].title, partial(C.bars, bars[fam]))
        if fam in cycles:
            _add(sec, cycles[fam].key, cycles[fam].title, partial(C.bars, cycles[fam]))
        if fam in lines:
            _add(sec, lines[fam].key, lines[fam].title, partial(C.size_lines, lines[fam]))
    sec.parts.append(f"<h3>{escape(table.title)}</h3>")
    sec.parts.append(H.table(table.header, table.rows, numeric=(4, 5, 6, 7, 8),
                             css_of=H.grade_class))
    return sec


def _path_section(b: RunBundle) -> Section | None:
    from cipherbench.report import charts as C
    table = D.path_table(b.results)
    errors = [r for r in b.results if r.metric == "error"]
    if table is None and not errors:
        return None
    sec = Section(f"{b.run.command}-{b.run.id}",
                  f"{b.run.command} (run {b.run.id}, {_machine_name(b.run)})")
    sec.parts.append(f"<p class=muted>{escape(D.machine_line(b.run))}. Each cipher beside its "
                     "baseline: a cleartext transfer over the same path, or the same cipher "
                     "measured alone, without the tool around it.</p>")
    for p in D.path_bars(b.run, b.results):
        _add(sec, p.key, p.title, partial(C.path_bars, p))
    if table is not None:
        sec.parts.append(H.table(table.header, table.rows, numeric=(5, 6, 7, 8),
                                 css_of=H.grade_class))
    if errors:
        rows = [[(r.lib, r.lib), (r.algo, r.algo), (r.op, r.op),
                 (str(r.extra.get("message", "failed")), "")] for r in errors]
        sec.parts.append("<h3>not measured</h3>" + H.table(["tool", "algorithm", "op", "why"],
                                                           rows))
    return sec


def _advise_section(b: RunBundle) -> Section:
    sec = Section(f"advice-{b.run.id}", f"The answer (advise, run {b.run.id})")
    args = ", ".join(f"{k}: {v}" for k, v in sorted(b.run.args.items()))
    if args:
        sec.parts.append(f"<p class=muted>asked: {escape(args)}</p>")
    listed = []
    for r in b.results:
        ans, neck, conf = (r.extra.get("answer"), r.extra.get("bottleneck"),
                           r.extra.get("config"))
        if not (ans or neck or conf):
            listed.append(r)
            continue
        html = ""
        if ans:
            html += f"<p><strong>{escape(str(ans))}</strong></p>"
        if neck:
            html += f"<p>{escape(str(neck))}</p>"
        if isinstance(conf, dict):
            for name, lines in conf.items():
                text = "\n".join(lines) if isinstance(lines, list) else str(lines)
                html += f"<p class=muted>{escape(str(name))}</p><pre>{escape(text)}</pre>"
        elif conf:
            text = "\n".join(map(str, conf)) if isinstance(conf, list) else str(conf)
            html += f"<pre>{escape(text)}</pre>"
        sec.parts.append(f"<div class=answer><h3>{escape(r.algo)}</h3>{html}</div>")
    if listed:
        rows = [[(r.lib, r.lib), (r.algo, r.algo), (r.op, r.op), (r.metric, r.metric),
                 (f"{r.median:.4g} {r.unit}", r.median)] for r in listed]
        sec.parts.append(H.table(["library", "candidate", "op", "metric", "value"], rows,
                                 numeric=(4,)))
    if len(sec.parts) <= 1:
        sec.parts.append("<p>This advise run stored no answer.</p>")
    return sec


def compare_section(cmp: cmpmod.Comparison, headline: int = 16384) -> Section:
    """The comparison of two runs: what differs, the summary per library, the forest chart
    (at the headline size when there are many quantities) and the full table."""
    from cipherbench.report import charts as C
    a, b = cmp.run_a, cmp.run_b
    sec = Section("compare", f"Run {b.id} against run {a.id}")
    sec.parts.append(f"<p class=muted>A = run {a.id}: {escape(D.machine_line(a))}<br>"
                     f"B = run {b.id}: {escape(D.machine_line(b))}</p>")
    if cmp.differences:
        items = "".join(f"<li>{escape(cmpmod.describe_difference(d))}</li>"
                        for d in cmp.differences)
        sec.parts.append(f"<p>What differs between the runs:</p><ul>{items}</ul>")
    sec.parts.append("<p>" + escape(
        "Ratio = speed in B / speed in A (above 1: B is faster). The interval is "
        "[B low / A high, B high / A low] from the two 95% intervals. "
        + (cmp.rule.text() if cmp.rule else "") + ".") + "</p>")
    if cmp.summaries:
        lines = "".join(f"<li>{escape(cmpmod.summary_line(s))}</li>" for s in cmp.summaries)
        sec.parts.append(f"<ul>{lines}</ul>")
    if cmp.entries:
        shown = cmp.entries
        where = ""
        if len(shown) > COMPARE_CHART_MAX:
            sizes = {e.size for e in shown if e.scenario == D.PRIMITIVE and e.size}
            at = min(sizes, key=lambda s: (abs(s - headline), -s)) if sizes else None
            shown = [e for e in shown if e.scenario != D.PRIMITIVE or e.size == at]
            where = f" at {D._size_text(at)}" if at else ""
            if len(shown) > COMPARE_CHART_MAX:
                # The biggest changes first; the table below holds the rest.
                shown = sorted(shown, key=lambda e: -abs(math.log(e.ratio)))[:COMPARE_CHART_MAX]
                shown.sort(key=cmp.entries.index)
                where += f", the {COMPARE_CHART_MAX} largest changes"
        title = f"Speed of run {b.id} relative to run {a.id}{where}"
        subtitle = f"A: {D.machine_line(a)}  |  B: {D.machine_line(b)}"
        _add(sec, f"compare-{a.id}-{b.id}", title,
             lambda: C.compare_chart(cmp, shown, title, subtitle))
        rows = [[(e.scenario, e.scenario), (e.lib, e.lib), (e.algo, e.algo), (e.op, e.op),
                 (D._size_text(e.size), e.size or 0),
                 (cmpmod.value_text(e, e.a), e.a if e.metric != "ns_per_op" else -e.a),
                 (cmpmod.value_text(e, e.b), e.b if e.metric != "ns_per_op" else -e.b),
                 (f"{e.ratio:.3g}", e.ratio), (cmpmod.interval_text(e), e.low),
                 (e.mark, e.mark)] for e in cmp.entries]
        sec.parts.append(H.table(["scenario", "library", "algorithm", "op", "size", "A", "B",
                                  "B/A", "interval", "change"], rows, numeric=(4, 5, 6, 7, 8),
                                 css_of=H.grade_class))
    else:
        sec.parts.append("<p>The two runs hold no quantity in common.</p>")
    for note in cmp.notes:
        sec.parts.append(f"<p class=muted>{escape(note)}</p>")
    return sec


def _post_section(bundles: list[RunBundle], headline: int) -> Section | None:
    """The release-post charts (``report --chart``) that the page's primitive runs can draw:
    one library version, hardware state and core build per series, the runs named."""
    from cipherbench.report import dots, evidence, post, table
    runs = sorted(((b.run, b.results) for b in bundles if b.run.command == "run"),
                  key=lambda x: x[0].id)
    if not runs:
        return None
    sec = Section("overview", "Overview: every measured algorithm by library")
    sec.parts.append("<p class=muted>" + escape(
        "Dots on a logarithmic axis, one row per algorithm; each series is one library with "
        "one version, one hardware state and one core build, and names the runs it comes "
        "from. The same charts come one by one from `cipherbench report --chart NAME`.")
                     + "</p>")
    for name in post.CHARTS:
        try:
            data, _ = post.build(name, runs, headline, named=True)
        except (post.NothingToDraw, evidence.MixedMachines):
            continue
        _add(sec, f"overview-{data.key}", data.title, partial(dots.draw, data),
             table.csv_text(data))
    return sec if sec.charts else None


def _warnings_section(bundles: list[RunBundle]) -> Section | None:
    rows = [[(str(b.run.id), b.run.id), (w.kind, w.kind), (w.subject, w.subject),
             (w.text, "")] for b in bundles for w in b.warnings]
    if not rows:
        return None
    sec = Section("warnings", "Warnings")
    sec.parts.append(H.table(["run", "kind", "subject", "what to do"], rows))
    return sec


#: What each command's answer is about, as the answer section names it.
TASKS = {"run": "Which primitive, in which library", "tls": "TLS record layer",
         "ssh": "ssh transfers", "gpg": "Backups with gpg and age", "advise": "Advice"}


def _load_line(run) -> str:
    """``machine, load`` as the run stored them."""
    m = run.metadata
    share, others = m.get("cpu_share"), (m.get("load_start") or {}).get("others")
    load = ("; the run got " + f"{min(share, 1.0):.0%} of its CPU" if share is not None
            else "") + (f", {others} other runnable tasks at its start"
                        if others is not None else "")
    avg = m.get("loadavg")
    if isinstance(avg, (int, float)):
        load += f"; load average {avg:.2f}"
    return f"Measured on {D.machine_line(run)}{load}"


def answers(bundles: list[RunBundle], headline: int) -> list[H.TaskAnswer]:
    """Each run's answer, from its stored results: a primitive run's record, a real path's
    verdict sentences (the ones its command ends with), an advise run's stored answers."""
    from cipherbench.scenarios import scenario
    from cipherbench.scenarios.primitive import scenario as primitive
    out = []
    for b in bundles:
        task = TASKS.get(b.run.command, b.run.command)
        where = _load_line(b.run)
        if b.run.command == "advise":
            lines = tuple(str(r.extra[key]) for r in b.results for key in ("answer", "bottleneck")
                          if r.extra.get(key))
            if lines:
                out.append(H.TaskAnswer(b.run.id, task, where, lines=lines))
        elif b.run.command == "run":
            found = primitive.answer_of(b.run, b.results, headline)
            if found is not None:
                out.append(H.TaskAnswer(b.run.id, task, where, primitive=found))
        elif (module := scenario(b.run.command)) is not None:
            lines = tuple(module.answer_lines(b.run, b.results))
            if lines:
                out.append(H.TaskAnswer(b.run.id, task, where, lines=lines))
    return out


def machines_section(answers: Sequence[MachineAnswer]) -> Section:
    """Machines side by side (``report.machines``): the sentence, the table, the chart of
    each machine's rates, the config lines per group."""
    from cipherbench.report import charts as C
    from cipherbench.report import machines as M
    parts = M.section_parts(answers)
    sec = Section("machines", "Machines side by side", parts[:2])
    data = M.bars(answers, C.PALETTE)
    if data.values:
        _add(sec, data.key, data.title, partial(C.bars, data))
    sec.parts += parts[2:]
    return sec


def build(bundles: list[RunBundle], headline: int = 16384,
          machines: Sequence[MachineAnswer] | None = None) -> Report:
    """The report of the given runs (at least one), charts drawn; the answer first, then,
    given ``machines`` (each machine's answer, ``advise.fleet``), the machines side by
    side."""
    sections: list[Section] = [Section("answer", "The answer",
                                       [H.answers_html(answers(bundles, headline))])]
    if machines:
        sections.append(machines_section(machines))
    comparison = None
    if len(bundles) == 2:
        cmp = cmpmod.compare_runs(bundles[0].run, bundles[0].results, bundles[1].run,
                                  bundles[1].results, None, bundles[0].warnings,
                                  bundles[1].warnings)
        if cmp.entries:
            comparison = compare_section(cmp, headline)
    for b in bundles:
        if b.run.command == "advise":
            sections.append(_advise_section(b))
    if comparison is not None:
        sections.append(comparison)
    overview = _post_section(bundles, headline)
    if overview is not None:
        sections.append(overview)
    for b in bundles:
        if b.run.command == "advise":
            continue
        s = _primitive_section(b, headline)
        if s is not None:
            sections.append(s)
        if any(r.scenario != D.PRIMITIVE for r in b.results):
            p = _path_section(b)
            if p is not None:
                sections.append(p)
    sections.append(_machine_section(bundles))
    w = _warnings_section(bundles)
    if w is not None:
        sections.append(w)
    ids = ", ".join(str(b.run.id) for b in bundles)
    first = bundles[0].run
    title = "cipherbench report" + (f": {D.machine_line(first).split(', run')[0]}")
    if machines and len(machines) > 1:
        title = (f"cipherbench report: {len(machines)} machines ("
                 f"{', '.join(m.machine.name for m in machines)})")
    subtitle = (f"run{'s' if len(bundles) > 1 else ''} {ids}, "
                f"{', '.join(sorted({b.run.command for b in bundles}))}; "
                f"from {min(b.run.started_at for b in bundles)[:16].replace('T', ' ')} UTC")
    return Report(title, subtitle, sections)


def render_html(rep: Report) -> str:
    """The page with every chart inline as SVG."""
    from cipherbench.report import charts as C
    svgs = {c.key: C.to_svg(c.figure, f"c{i}") for i, c in enumerate(rep.charts)}
    captions = {c.key: c.caption for c in rep.charts}
    body = []
    for s in rep.sections:
        body.append(f'<section id="{escape(s.id)}"><h2>{escape(s.title)}</h2>')
        for part in s.parts:
            m = re.fullmatch(r"\{chart:(.+)\}", part)
            body.append(H.figure(svgs[m.group(1)], captions[m.group(1)]) if m else part)
        body.append("</section>")
    return H.page(rep.title, rep.subtitle, [(s.id, s.title) for s in rep.sections], body)


def write_html(rep: Report, path: Path | str) -> Path:
    """Write the page; returns its path."""
    path = Path(path)
    path.write_text(render_html(rep), encoding="utf-8")
    return path


def write_pngs(rep: Report, directory: Path | str) -> list[Path]:
    """One PNG per chart in ``directory`` (created), and its numbers as CSV beside it where
    the chart has them (the post charts); returns the PNGs' paths."""
    from cipherbench.report import charts as C
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for c in rep.charts:
        p = d / f"{c.key}.png"
        C.to_png(c.figure, p)
        if c.csv is not None:
            p.with_suffix(".csv").write_text(c.csv, encoding="utf-8")
        out.append(p)
    return out
