# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench core build`` and ``cipherbench core variants``: cores built against a second
build of a library, kept in the variants file for ``run --lib LIB@NAME``."""
from __future__ import annotations

import click

from cipherbench.cores import variant_build, variants
from cipherbench.clikit.context import AppContext
from cipherbench.display import console as disp


@click.group()
def command() -> None:
    """Library variants: cores built against a second build of a library."""


@command.command("build")
@click.option("--variant", "name", required=True, metavar="NAME",
              help="the variant's name: measured later with `run --lib LIB@NAME`")
@click.option("--prefix", required=True, metavar="DIR",
              help="where the library's build is installed (DIR/lib/pkgconfig/*.pc)")
@click.option("--lib", "lib", metavar="LIB", default=None,
              help="the library (default: the one whose pkg-config file DIR has)")
@click.pass_obj
def build(app: AppContext, name, prefix, lib) -> int:
    """Build a core against the library installed under DIR, for a build whose soname or ABI
    differs from the system's (one of the same soname needs no core: `run --lib LIB@DIR`
    loads it). Only that library's backend is built, with an rpath to DIR's lib directory;
    the variant is recorded in the variants file."""
    def say(line: str) -> None:
        app.err_console.print(line, markup=False, highlight=False)

    built = variant_build.build(name, prefix, lib, app.env, say=say)
    path = variants.variants_file(app.env)
    variants.save(path, built.variant)
    v = built.variant
    app.console.print(f"variant {v.name}: {v.lib} {built.version} from {built.loaded}\n"
                      f"core: {v.core} (log: {built.log})\nrecorded in {path}: measure it "
                      f"with `cipherbench run --lib {v.lib},{v.spec}`", markup=False,
                      highlight=False)
    return 0


@command.command("variants")
@click.pass_obj
def list_variants(app: AppContext) -> int:
    """The variants of the variants file ($CIPHERBENCH_VARIANTS, else
    ~/.config/cipherbench/variants.toml)."""
    path = variants.variants_file(app.env)
    known = variants.load(path)
    if not known:
        app.console.print(f"no variants in {path}; add one as NAME = {{lib = \"libgcrypt\", "
                          "prefix = \"/opt/libgcrypt-1.11\"}, or build one with `cipherbench "
                          "core build --variant NAME --prefix DIR`", markup=False,
                          highlight=False)
        return 0
    rows = [[v.spec, str(v.prefix), str(v.core) if v.core else "(the system's core, "
             "prefix first on the loader path)"] for v in known.values()]
    disp.display_rows(app.console, ["--lib", "prefix", "core"], rows)
    app.console.print(f"from {path}", markup=False, highlight=False)
    return 0
