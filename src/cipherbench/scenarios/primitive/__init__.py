# SPDX-License-Identifier: GPL-3.0-or-later
"""The primitive scenario (``cipherbench run``): raw ciphers, AEADs, hashes and MACs through
cipherbench-core. ``batches`` plans and measures points; ``scenario`` is the interface the
registry and the CLI use (plan, estimate, measure, view)."""
from cipherbench.scenarios.primitive.batches import (METRIC_POINT, METRIC_SLOPE, SCENARIO, Item,
                                                     PrimitiveRunner, RunOutcome,
                                                     Selection, plan, point_label)

__all__ = ["METRIC_POINT", "METRIC_SLOPE", "SCENARIO", "Item", "PrimitiveRunner",
           "RunOutcome", "Selection", "plan", "point_label"]
