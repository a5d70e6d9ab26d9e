# SPDX-License-Identifier: GPL-3.0-or-later
"""``export --format openmetrics``: the latest figure of every host, library, algorithm,
operation and size in the OpenMetrics text format, for node_exporter's textfile collector (or
any scraper), so a fleet's crypto speed, and a change after an update, shows in the monitoring
people already run.

Families (gauges): ``cipherbench_throughput_bytes_per_second`` (bytes per second of the median
time per operation, from the latest run of ``run`` that measured that point on that host),
``cipherbench_run_finished_timestamp_seconds`` (when that run ended, to see stale figures) and
``cipherbench_run_info`` (1, labelled with the run, its unique id, CPU and version). A host is
the ``--host`` destination, else the machine's host name. Runs with hardware features turned
off are kept apart by their ``hw_off`` label. No sample carries a timestamp: the textfile
collector refuses them. The text ends with ``# EOF``, as the format requires.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from cipherbench.store import Run, Store

THROUGHPUT = "cipherbench_throughput_bytes_per_second"
FINISHED = "cipherbench_run_finished_timestamp_seconds"
INFO = "cipherbench_run_info"


@dataclass(frozen=True)
class Figure:
    host: str
    lib: str
    algo: str
    op: str
    size: int
    hw_off: str
    bytes_per_s: float
    run: Run


def host_of(run: Run) -> str:
    m = run.metadata
    return str(m.get("host") or m.get("hostname") or "unknown")


def latest_figures(store: Store) -> list[Figure]:
    """The newest figure of each (host, lib, algo, op, size, hardware switches)."""
    latest: dict[tuple, Figure] = {}
    for run in store.runs("run"):          # oldest first: a newer run replaces
        if run.status not in ("complete", "interrupted") or int(run.args.get("threads") or 1) > 1:
            continue
        hw_off = ",".join(run.args.get("hw_disabled") or [])
        for r in store.results(run.id):
            if r.metric != "ns_per_op" or not r.size or r.median <= 0 or r.lib == "ref":
                continue
            f = Figure(host_of(run), r.lib, r.algo, r.op, r.size, hw_off,
                       r.size / (r.median * 1e-9), run)
            latest[(f.host, f.lib, f.algo, f.op, f.size, f.hw_off)] = f
    return sorted(latest.values(), key=lambda f: (f.host, f.lib, f.algo, f.op, f.size,
                                                  f.hw_off))


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")


def _labels(pairs: dict[str, str]) -> str:
    return "{" + ",".join(f'{k}="{_escape(str(v))}"' for k, v in pairs.items()) + "}"


def _number(x: float) -> str:
    return repr(float(x))


def _timestamp(text: str | None) -> float | None:
    try:
        return _dt.datetime.fromisoformat(text).timestamp() if text else None
    except ValueError:
        return None


def render(figures: list[Figure]) -> str:
    out = [f"# TYPE {THROUGHPUT} gauge", f"# UNIT {THROUGHPUT} bytes_per_second",
           f"# HELP {THROUGHPUT} Bytes per second of one core, the latest cipherbench run "
           "per host, library, algorithm, operation and message size."]
    for f in figures:
        out.append(THROUGHPUT + _labels({"host": f.host, "lib": f.lib, "algo": f.algo,
                                         "op": f.op, "size": str(f.size), "hw_off": f.hw_off})
                   + " " + _number(f.bytes_per_s))
    runs = {(f.host, f.run.id): f.run for f in figures}
    out += [f"# TYPE {FINISHED} gauge", f"# UNIT {FINISHED} seconds",
            f"# HELP {FINISHED} When the run that gave a host's figures ended (Unix time)."]
    for (host, run_id), run in sorted(runs.items()):
        t = _timestamp(run.finished_at or run.started_at)
        if t is not None:
            out.append(FINISHED + _labels({"host": host, "run": str(run_id)}) + " "
                       + _number(t))
    out += [f"# TYPE {INFO} gauge",
            f"# HELP {INFO} The runs the figures come from: their unique id, CPU and version."]
    for (host, run_id), run in sorted(runs.items()):
        out.append(INFO + _labels({"host": host, "run": str(run_id), "uid": run.uid,
                                   "cpu_model": str(run.metadata.get("cpu_model") or ""),
                                   "cipherbench_version": run.cipherbench_version}) + " 1")
    out.append("# EOF")
    return "\n".join(out) + "\n"
