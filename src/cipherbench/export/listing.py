# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench list --json`` and ``list --missing --json`` as versioned documents.
Schemas: list.schema.json, list-missing.schema.json.

Schema versions (``schema_version``), the same for both documents:
- 1: first version. ``cipherbench-list``: ``cpu_flags``, ``libraries`` (``lib``, ``version``,
  ``caps``, ``provider``), ``algorithms`` (``algo``, ``kind``, ``grade``, ``reason``,
  ``libs``) and ``cores`` (``core``, ``path``, ``libs``, ``problem``).
  ``cipherbench-list-missing``: ``libraries`` (``lib``, ``version``, ``enumerates``,
  ``missing``: ``kind``, ``name``, ``algo``). Before it, ``list --json`` printed the same
  object without the schema fields, with capabilities and each algorithm's libraries as one
  comma-separated string, and ``list --missing --json`` a bare list.
- 2: ``cipherbench-list-missing``'s ``missing`` entries may carry ``why``: the reason no row
  measures that algorithm on purpose (absent for a gap not yet closed); ``cipherbench-list``
  is unchanged.
- 3: ``cipherbench-list`` has ``modules``: the C core's library modules (``lib``,
  ``loaded``, ``path``, ``error``: the loader's reason when one did not load);
  ``cipherbench-list-missing`` is unchanged.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from cipherbench.cores.core_client import Inventory

if TYPE_CHECKING:
    from cipherbench.cores.combined import CoreSource
    from cipherbench.display.format import ListView
    from cipherbench.cores.offered import LibraryOffer, Offered

SCHEMA_NAME = "cipherbench-list"
MISSING_SCHEMA_NAME = "cipherbench-list-missing"
SCHEMA_VERSION = 3


def list_document(inv: Inventory, view: "ListView", sources: Sequence["CoreSource"]) -> dict:
    """What ``list`` shows: ``view`` is its ``display.format.ListView`` (the chosen libraries
    and algorithms), ``sources`` the cores (``cores.CoreSource``)."""
    libs = []
    for row in view.libraries:
        rec = inv.libraries.get(row[0], {})
        libs.append({"lib": row[0], "version": rec.get("version"),
                     "caps": list(rec.get("caps") or []), "provider": rec.get("provider")})
    return {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "cpu_flags": list(view.cpu_flags),
        "libraries": libs,
        "algorithms": [{"algo": algo, "kind": kind, "grade": grade, "reason": reason,
                        "libs": [l for l in have.split(", ") if l]}
                       for algo, kind, grade, reason, have in view.algorithms],
        "cores": [{"core": s.executable, "path": str(s.path) if s.path else None,
                   "libs": list(s.libs), "problem": s.problem or None} for s in sources],
        "modules": [{"lib": m.lib, "loaded": m.loaded, "path": m.path, "error": m.error or None}
                    for m in inv.modules],
    }


def missing_document(offers: Sequence["LibraryOffer"]) -> dict:
    """What ``list --missing`` shows (``offered.LibraryOffer`` per library)."""
    return {
        "schema": MISSING_SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "libraries": [{"lib": o.lib, "version": o.version, "enumerates": o.enumerates,
                       "missing": [_missing_entry(m) for m in o.missing]} for o in offers],
    }


def _missing_entry(m: "Offered") -> dict:
    """One ``missing`` entry; ``why`` only where the core gives a reason."""
    entry = {"kind": m.kind, "name": m.name, "algo": m.algo}
    if m.why:
        entry["why"] = m.why
    return entry
