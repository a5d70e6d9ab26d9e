# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench luks``: the kernel's dm-crypt per cryptsetup cipher, through real mappings on a
RAM-backed device (root, device-mapper and dm-crypt needed)."""
from __future__ import annotations

import re

import click

from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.options import Size, nonempty_list, split_list
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.scenarios.outcome import finish
from cipherbench.scenarios.luks import dmcrypt
from cipherbench.scenarios.luks import scenario as luks
from cipherbench.scenarios.progress import mode_for
from cipherbench.scenarios.recording import Recording

_SPEC = re.compile(r"([a-z0-9]+(?:,[a-z0-9]+)?-[a-z0-9]+(?:-[a-z0-9]+)?(?::[a-z0-9]+)?):"
                   r"(128|192|256|384|512)")


def parse_specs(items: list[str]) -> list[tuple[str, int]]:
    """``aes-xts-plain64:512,...`` -> [(spec, key bits)]; ``UsageError`` for a bad one."""
    out = []
    for item in items:
        m = _SPEC.fullmatch(item.strip())
        if not m:
            raise UsageError(f"--cipher {item!r} is not SPEC:BITS (e.g. aes-xts-plain64:512, "
                             "xchacha12,aes-adiantum-plain64:256)")
        out.append((m.group(1), int(m.group(2))))
    return out


def check_available() -> None:
    """One line and a non-zero exit where dm-crypt cannot be measured."""
    why = dmcrypt.unavailable()
    if why:
        raise EnvironmentProblem(f"dm-crypt cannot be measured here: {why}")


@click.command(help="""The kernel's own dm-crypt, per cryptsetup cipher: a real crypt mapping
over a RAM-backed loop device (a file in /dev/shm), written and read with O_DIRECT in
randomized interleaved rounds. Needs root, dmsetup, losetup and a kernel with device-mapper
and dm-crypt; `advise --for luks --kernel` runs it.""")
@click.option("--cipher", "ciphers", multiple=True, metavar="SPEC:BITS", callback=nonempty_list,
              help="cryptsetup specs with key bits, comma-separated (default: "
                   + ", ".join(luks.key(s, b) for s, b in luks.DEFAULT_SPECS) + ")")
@click.option("--size", default="64M", type=Size(1 << 20, 1 << 30), show_default=True,
              help="bytes written and read per pass (held in RAM)")
@click.option("--rounds", type=click.IntRange(2, 100), default=luks.DEFAULT_ROUNDS,
              show_default=True, metavar="N", help="interleaved rounds")
@click.option("--sector-size", type=click.Choice(["512", "4096"]), default="4096",
              show_default=True, help="dm-crypt's sector size")
@click.option("--seed", type=int, default=None, metavar="S",
              help="the seed of the rounds' random order (default: a new one, stored)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, ciphers, size, rounds, sector_size, seed, db, as_json) -> int:
    specs = parse_specs(split_list(ciphers)) if ciphers else list(luks.DEFAULT_SPECS)
    if size % 4096:
        raise UsageError("--size must be a multiple of 4 KiB")
    check_available()
    p = luks.LuksPlan(specs, size, rounds, int(sector_size))
    if seed is not None:
        p.seed = seed
    store = app.open_store(db)
    with Recording(store, luks.NAME, p.args(), p.metadata(), console=app.err_console,
                   progress=mode_for(app.err_console, None), unit=luks.UNIT, total=p.steps(),
                   estimate_s=luks.estimate_s(p),
                   show=lambda run_id: _show(app, store, run_id, False)) as rec:
        outcome = luks.measure(p, rec)
    _show(app, store, rec.run_id, as_json)
    store.close()
    return finish(app, rec, outcome)


def _show(app: AppContext, store, run_id: int, as_json: bool) -> None:
    if as_json:
        app.stdout.write(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
    else:
        run, results = store.get_run(run_id), store.results(run_id)
        luks.view(app, run, results, [])
        luks.answer(app, run, results)
