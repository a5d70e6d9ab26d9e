# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench list``: libraries, versions, algorithms with grades, CPU acceleration."""
from __future__ import annotations

import json

import click

from cipherbench import catalog
from cipherbench.cores import offered
from cipherbench.clikit.context import AppContext
from cipherbench.clikit.options import nonempty_list, split_list
from cipherbench.cores.combined import Cores, format_sources
from cipherbench.display import console as disp
from cipherbench.display.format import format_list
from cipherbench.errors import UsageError
from cipherbench.export.listing import list_document, missing_document
from cipherbench.suggest import did_you_mean

GRADE_CHOICES = catalog.GRADES[:-1] + ("unknown",)


@click.command()
@click.option("--lib", "-l", "libs", multiple=True, metavar="LIBS", callback=nonempty_list,
              help="only these libraries, comma-separated; a second build of one as LIB@PREFIX or "
                   "LIB@NAME (the variants file)")
@click.option("--grade", "grades", multiple=True, metavar="GRADES",
              help="only these grades: recommended, acceptable, legacy, broken")
@click.option("--missing", is_flag=True,
              help="per library, what it offers that cipherbench does not measure, and "
                   "why where that is on purpose")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@click.pass_obj
def command(app: AppContext, libs, grades, missing, as_json) -> int:
    """Show what this build can measure and how secure each algorithm is."""
    grade_list = split_list(grades)
    for g in grade_list:
        if g not in GRADE_CHOICES:
            raise UsageError(f"unknown grade {g!r}{did_you_mean(g, GRADE_CHOICES)}; valid: "
                             + ", ".join(GRADE_CHOICES[:-1]))
    cores = Cores.find(app.env, app.warn)
    lib_list = cores.add_variants(split_list(libs))   # LIB@PREFIX: the variant's column
    inv = cores.list()
    have = [l for l in inv.libs() if l != "ref"]
    for l in lib_list:
        if l not in have and (why := inv.unknown_library(l)):
            raise UsageError(why)
        if l not in have:
            raise UsageError(f"unknown library {l!r}{did_you_mean(l, have)}; this build has: "
                             + ", ".join(have))
    if missing:
        offers = offered.gather(cores.main)
        # The Go and Rust cores have no `list --offered`: their libraries enumerate nothing.
        offers += [offered.LibraryOffer(l, inv.libraries[l].get("version") or "")
                   for l in have if l not in {o.lib for o in offers}]
        offers = [o for o in offers if not lib_list or o.lib in lib_list]
        if as_json:
            app.stdout.write(json.dumps(missing_document(offers), indent=2) + "\n")
        else:
            app.stdout.write("\n".join(offered.format_missing(offers)) + "\n")
        return 0
    view = format_list(inv, lib_list or None, grade_list or None)
    if as_json:
        app.stdout.write(json.dumps(list_document(inv, view, cores.sources()), indent=2) + "\n")
    else:
        disp.display_list(app.console, view)
        disp.display_rows(app.console, ["core", "where", "libraries"],
                          format_sources(cores.sources()), title="measured by")
    # A library whose module did not load: named with the loader's reason, not a column.
    for lib, why in inv.unavailable().items():
        if not lib_list or lib in lib_list:
            app.warn(f"{lib} is not available here: its module did not load: {why}")
    return 0
