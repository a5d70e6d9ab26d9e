# SPDX-License-Identifier: GPL-3.0-or-later
"""The caption of a post chart (pure): the machine, the versions, and the commands that
measured and drew it, so that a published chart says where its numbers come from."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cipherbench.units import format_bytes

if TYPE_CHECKING:
    from cipherbench.report.evidence import Evidence
    from cipherbench.report.post import DotChart


def _run_command(args: dict[str, Any]) -> str:
    """What a primitive run was asked, as its command line's options (the algorithms
    counted, not listed)."""
    bits = ["cipherbench run"]
    if args.get("preset") and args["preset"] != "default":
        bits.append(f"--{args['preset']}")
    if args.get("sizes"):
        bits.append("--sizes " + ",".join(format_bytes(int(s)).replace(" ", "")
                                          for s in args["sizes"]))
    if args.get("precision"):
        bits.append(f"--precision {float(args['precision']) * 100:g}%")
    if args.get("budget_s") is not None:
        bits.append(f"--budget {args['budget_s']:g}")
    if args.get("rounds"):
        bits.append(f"--rounds {args['rounds']}")
    off = args.get("hw_disabled") or []
    if off:
        bits.append("--disable-cpu-feature " + ",".join(map(str, off)))
    if int(args.get("threads") or 1) > 1:
        bits.append(f"--threads {args['threads']}")
    if args.get("algos"):
        bits.append(f"--algo ... ({len(args['algos'])} algorithms)")
    return " ".join(bits)


def lines(ev: "Evidence", chart: "DotChart") -> list[str]:
    """Machine (with its OS), the versions of every library drawn and the core, and the
    command of each run."""
    runs = ev.runs
    m = runs[-1].metadata if runs else {}
    machine = ev.machine.text() + (f", {m['os']}" if m.get("os") else "") \
        + (f", kernel {m['kernel']}" if m.get("kernel") else "")
    versions = []
    for st in chart.series:
        text = f"{st.lib} {st.version}".strip() if st.version else st.lib
        if text not in versions:
            versions.append(text)
    core = " ".join(str(m.get(k) or "") for k in ("core_version", "core_compiler")).strip()
    out = [f"machine: {machine}",
           "versions: " + "; ".join(versions) + (f"; cipherbench-core {core}" if core else "")]
    out.append("measured by: " + "; ".join(f"run {r.id}: {_run_command(r.args)}"
                                         for r in runs))
    return out
