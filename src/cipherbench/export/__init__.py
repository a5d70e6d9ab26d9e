# SPDX-License-Identifier: GPL-3.0-or-later
"""Exports of a stored run. Every exporter has ``name``, ``extension`` and
``render(bundle, headline) -> str`` (``base.Exporter``); ``EXPORTERS`` registers them."""
from cipherbench.export.base import Exporter, RunBundle
from cipherbench.export.csv_export import CsvExporter
from cipherbench.export.json_export import SCHEMA_VERSION, JsonExporter, to_document
from cipherbench.export.markdown import MarkdownExporter

#: --format name -> exporter.
EXPORTERS: dict[str, Exporter] = {e.name: e for e in (JsonExporter(), CsvExporter(),
                                                      MarkdownExporter())}

__all__ = ["EXPORTERS", "Exporter", "RunBundle", "SCHEMA_VERSION", "to_document"]
