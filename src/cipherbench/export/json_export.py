# SPDX-License-Identifier: GPL-3.0-or-later
"""JSON export: the run, its metadata, every result and warning. Schema: schema.json.

It is also what ``--json`` prints for every measuring command (``run``, ``tls``, ``ssh``,
``gpg``): the stored run, plus the command's own summary at the top level when its scenario
has one (``summary(run, results)``: tls ``suites`` and ``handshakes``, gpg ``rows`` and
``backup_size``, ssh ``ssh_rows`` and ``bottleneck``).

Schema versions (``schema_version``):
- 1: first version: run, results (with ``extra``, and ``grade``: the one a scenario stored, else the catalog's), warnings.
- 2: the scenario's summary beside the results (optional ``suites``, ``handshakes``, ``rows``,
  ``backup_size``); ``tls --json`` and ``gpg --json`` print this document instead of their
  own ``cipherbench-tls/1`` and ``cipherbench-gpg/1``, whose fields live on in the summary.
- 3: verdicts against the default, paired per round (``$defs/paired``: ratio, interval,
  rounds, verdict, text): gpg ``rows`` gain ``is_default`` and ``vs_default`` (per
  operation), tls ``suites`` gain ``is_default``, ``vs_default`` (per write size) and
  ``loopback_vs_default``; the run's ``args`` carry ``rounds`` and ``seed``.
  ssh's summary: ``ssh_rows`` (per tool and cipher: rate over the rounds, and the paired
  verdicts against the client default of the same tool and against the cleartext baseline)
  and ``bottleneck`` (crypto, path or unknown, with its sentence). ssh's stored results gain
  one ``round_s`` row per timed sample, and their ``op`` is the tool that moved the bytes
  (``pipe``, ``sftp``, ``scp``, ``rsync``; the baseline keeps ``transfer``).
- 4: gpg's rates are per call the CPU time of the fastest calls that kept the CPU, no longer
  the median call's wall time: the summary gains ``figure`` (``cpu_s``, or ``wall_s`` for a
  run stored before), ``calls_left_out`` and ``calls``; gpg results' ``extra`` gains
  ``figure``, ``cpu_samples_s`` and ``lost_cpu_at`` (round indexes), and their verdicts
  are paired on CPU time over the rounds that kept the CPU.
- 5: ssh's verdicts between ciphers are judged on the CPU time both ends spent per byte where
  every paired round has it to the nanosecond, else on transfer speed as before: every ssh
  verdict (``ssh_rows``' ``vs_default`` and ``vs_baseline``, the ``bottleneck``'s, and those
  in the ``bytes_per_s`` results' ``extra``) gains ``figure`` (``cpu_s`` or ``wall_s``; the
  baseline and the bottleneck are always ``wall_s``); ``ssh_rows`` and those results gain
  ``cpu_bytes_per_s`` (bytes per CPU second of both ends, median over the rounds, or null);
  ssh's ``round_s`` results gain ``client_cpu_method``.
- 6: ssh's ``bottleneck`` is decided from the fastest cipher's time split into the cipher's
  own work (measured alone in the same run: ssh results of metric ``cipher_bytes_per_s``),
  the program's and the waiting (``parts``), no longer from the cleartext baseline; its
  ``kind`` gains ``program``. gpg's summary gains ``backup`` (the whole backup's wall-clock
  and CPU time from the paired rounds, the disk rate that caps it and which decides) and
  each row ``backup_wall_seconds``.
- 7: the run's ``uid``: its unique id, kept by ``cipherbench import`` in every store.
"""
from __future__ import annotations

import json
from dataclasses import asdict


from cipherbench.export.base import RunBundle, result_grade

SCHEMA_NAME = "cipherbench-export"
SCHEMA_VERSION = 7


def to_document(bundle: RunBundle) -> dict:
    """The export as a JSON-ready dict."""
    run = bundle.run
    doc = {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "run": {
            "id": run.id, "uid": run.uid, "command": run.command, "status": run.status,
            "started_at": run.started_at, "finished_at": run.finished_at,
            "cipherbench_version": run.cipherbench_version, "args": run.args,
            "metadata": run.metadata,
        },
        "results": [
            {"scenario": r.scenario, "lib": r.lib, "algo": r.algo, "op": r.op, "size": r.size,
             "metric": r.metric, "unit": r.unit, "median": r.median, "ci_low": r.ci_low,
             "ci_high": r.ci_high, "n_samples": r.n_samples, "cv": r.cv,
             "grade": result_grade(r), "extra": r.extra}
            for r in bundle.results],
        "warnings": [{k: v for k, v in asdict(w).items() if k != "run_id"}
                     for w in bundle.warnings],
    }
    doc.update(_summary(bundle))
    return doc


def _summary(bundle: RunBundle) -> dict:
    """The summary of the scenario that made the run ({} when it has none)."""
    from cipherbench.scenarios import scenario
    mod = scenario(bundle.run.command)
    fn = getattr(mod, "summary", None) if mod is not None else None
    return fn(bundle.run, bundle.results) if fn else {}


class JsonExporter:
    """``--format json``."""

    name = "json"
    extension = "json"

    def render(self, bundle: RunBundle, headline: int = 16384) -> str:
        """Pretty-printed, keys sorted, so exports diff well."""
        return json.dumps(to_document(bundle), indent=2, sort_keys=True) + "\n"
