# SPDX-License-Identifier: GPL-3.0-or-later
"""One self-contained HTML file: inline CSS, charts as inline SVG, a few lines of inline
JavaScript that sort the tables. No external resource of any kind, so it works offline and can
be mailed or attached as it is.
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from html import escape
from typing import Iterable, Sequence

from cipherbench import __version__, catalog
from cipherbench.display.run_answer import KIND_LABEL, RunAnswer, kind_lines

CSS = """
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       max-width: 1200px; margin: 0 auto; padding: 0 1.2rem 3rem; }
h1 { font-size: 1.6rem; margin: 1.4rem 0 .2rem; }
h2 { font-size: 1.25rem; margin: 2.2rem 0 .6rem; border-bottom: 1px solid #ddd; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
p.lead, .muted { color: #555; }
nav a { margin-right: 1rem; }
figure { margin: 1rem 0 1.6rem; }
figure svg.chart { max-width: 100%; height: auto; display: block; }
figcaption { font-size: .85rem; color: #555; }
table { border-collapse: collapse; font-size: .85rem; margin: .4rem 0 1rem; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #eee; text-align: left;
         vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; user-select: none; background: #f6f6f6; }
table.sortable th[aria-sort=ascending]::after { content: " \\25B2"; }
table.sortable th[aria-sort=descending]::after { content: " \\25BC"; }
.faster { color: #2166ac; font-weight: 600; } .slower { color: #b2182b; font-weight: 600; }
.broken { color: #b2182b; } .legacy { color: #b35806; }
.answer { background: #f3f8fc; border-left: 4px solid #2166ac; padding: .6rem 1rem; }
.answer dt { font-weight: 600; margin-top: .3rem; } .answer dd { margin: 0 0 0 1.2rem; }
.mark { font-size: .8em; font-weight: 600; padding: 0 .25em; border-radius: 3px; }
.mark.broken { background: #fbe3e4; } .mark.legacy { background: #fdf0dc; }
pre { background: #f6f6f6; padding: .6rem; overflow-x: auto; }
details > summary { cursor: pointer; color: #2166ac; margin: .3rem 0; }
"""

# Click a header to sort by it; again to reverse. Cells carry their sort value in data-v.
JS = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th) {
    th.addEventListener('click', function () {
      var i = th.cellIndex, body = table.tBodies[0];
      var asc = th.getAttribute('aria-sort') !== 'ascending';
      table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[i].getAttribute('data-v'), y = b.cells[i].getAttribute('data-v');
        var nx = parseFloat(x), ny = parseFloat(y), c;
        if (x === '' || y === '') { c = (x === '') - (y === ''); return c; }
        c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""


def table(header: list[str], rows: Iterable[Sequence[tuple[str, object]]],
          numeric: Iterable[int] = (), css_of=None) -> str:
    """A sortable table; each cell is (text, sort value). ``numeric`` columns align right;
    ``css_of(text)`` may give a cell's class (grades, change marks)."""
    num = set(numeric)
    out = ['<table class="sortable"><thead><tr>']
    for i, h in enumerate(header):
        out.append(f'<th{" class=num" if i in num else ""} scope="col">{escape(h)}</th>')
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>")
        for i, (text, value) in enumerate(row):
            cls = []
            if i in num:
                cls.append("num")
            extra = css_of(text) if css_of else None
            if extra:
                cls.append(extra)
            v = "" if value is None else str(value)
            out.append(f'<td{" class=" + chr(34) + " ".join(cls) + chr(34) if cls else ""}'
                       f' data-v="{escape(v)}">{escape(str(text))}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def pairs(items: Iterable[tuple[str, str]]) -> str:
    """A two-column facts table."""
    rows = "".join(f"<tr><th scope=row>{escape(k)}</th><td>{escape(v)}</td></tr>"
                   for k, v in items)
    return f"<table class=facts>{rows}</table>"


def figure(svg: str, caption: str) -> str:
    """A chart; its title is drawn in it, so the caption is only for screen readers."""
    return f'<figure aria-label="{escape(caption)}">{svg}</figure>'


def grade_class(text: str) -> str | None:
    """Cell class for grades and change marks."""
    return text if text in ("broken", "legacy", "faster", "slower") else None


def page(title: str, subtitle: str, nav: list[tuple[str, str]], body: list[str]) -> str:
    """The whole document."""
    when = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    links = " ".join(f'<a href="#{escape(i)}">{escape(t)}</a>' for i, t in nav)
    return (
        "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
        '<meta name=viewport content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n<p class=lead>{escape(subtitle)}</p>\n"
        f"<nav>{links}</nav>\n" + "\n".join(body) +
        f"\n<footer class=muted><p>Made by cipherbench {escape(__version__)} on {when}. "
        "Throughput in decimal units (1 GB/s = 10<sup>9</sup> bytes per second); intervals "
        "are 95% confidence intervals of the median.</p></footer>\n"
        f"<script>{JS}</script>\n</body>\n</html>\n")


#: The grades a reader must not miss, and how a chart or a table marks them.
MARKED = ("broken", "legacy")


def grade_marker(algo: str) -> str:
    """The mark of an algorithm whose grade is broken or legacy, for a chart's label or a
    table's cell ("" for the others): ``rc4 (broken)``."""
    level = catalog.grade_of(algo)
    return f" ({level})" if level in MARKED else ""


def mark_grades(text: str) -> str:
    """``text`` escaped, every algorithm of a broken or legacy grade it names marked."""
    out = []
    for word in re.split(r"(\s+)", text):
        bare = word.strip(",;:.()")
        level = catalog.grade_of(bare) if bare else "unknown"
        if level in MARKED:
            out.append(escape(word) + f' <span class="mark {level}">{level}</span>')
        else:
            out.append(escape(word))
    return "".join(out)


@dataclass(frozen=True)
class TaskAnswer:
    """One run's answer for the page: what it measured, where and under what load, and the
    answer (a primitive run's record, or the real path's sentences)."""

    run_id: int
    task: str
    machine: str
    primitive: RunAnswer | None = None
    lines: tuple[str, ...] = ()


def answers_html(answers: Iterable[TaskAnswer]) -> str:
    """The page's first section: per task the answer, each broken or legacy algorithm
    marked, with the machine and the load it was measured under."""
    out = []
    for a in answers:
        body = ""
        if a.primitive is not None:
            items = "".join(
                f"<dt>{escape(KIND_LABEL[k.kind])}</dt>"
                + "".join(f"<dd>{mark_grades(s)}</dd>" for s in kind_lines(k))
                for k in a.primitive.kinds)
            body += f"<dl>{items}</dl>"
        body += "".join(f"<p>{mark_grades(line)}</p>" for line in a.lines)
        out.append(f'<div class=answer><h3>{escape(a.task)} (run {a.run_id})</h3>{body}'
                   f"<p class=muted>{escape(a.machine)}</p></div>")
    return "".join(out) or "<p>None of these runs stored an answer.</p>"
