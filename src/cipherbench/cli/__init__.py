# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``cipherbench`` command line.

``main(args, env) -> int`` runs one command in-process (tests call it directly); ``run()`` is
the console entry point. Each command is a module exposing ``command`` (a ``click.Command``):
the commands that measure are the scenarios' own (``scenarios.SCENARIOS``, each package's
``command`` module), the others are modules of this package, registered in ``COMMANDS``.

This module imports little at its top: the stop signals are caught before click, rich and the
commands are loaded (a second or more on a slow machine), so a Ctrl-C or SIGTERM at any moment
of start-up ends in the same one line as later.
"""
from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
from typing import TYPE_CHECKING, Mapping, Sequence, TextIO, cast

from cipherbench.interrupts import STOP_SIGNALS, left_to_caller, ours, stop_on_signals

if TYPE_CHECKING:
    import click

#: The commands that are not scenarios: a new one is a new module here and a name in this list.
COMMANDS = ("list", "history", "show", "export", "import", "compare", "report", "advise",
            "core")
#: Command name -> module, where the two differ (a module named ``list`` would shadow the
#: builtin in this package's namespace).
MODULE_OF = {"list": "listing", "import": "importing"}


def build_cli() -> "click.Group":
    """The click group with every registered command."""
    import click

    from cipherbench import __version__, scenarios

    @click.group(context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, prog_name="cipherbench")
    def cli() -> None:
        """cipherbench: which cipher, in which library, is fastest on this machine, and is it
        secure."""

    for name in COMMANDS:
        module = importlib.import_module(f"cipherbench.cli.{MODULE_OF.get(name, name)}")
        cli.add_command(module.command, name=name)
    for name in scenarios.SCENARIOS:   # run, tls, ssh, gpg: each scenario's own command
        cli.add_command(scenarios.command_of(name), name=name)
    return cli


def main(args: Sequence[str] | None = None, env: Mapping[str, str] | None = None,
         stdout=None, stderr=None, *, own_signals: bool = True) -> int:
    """Run ``cipherbench ARGS`` with environment ``env``; returns the exit status.

    User errors print one line on stderr (exit 2 for usage, 1 for the environment); Ctrl-C,
    SIGTERM and SIGHUP unwind the same way (``interrupts``) and exit 130; nothing a user can
    cause ends in a traceback. The stop signals are caught first of all, before anything slow
    (loading the commands included).

    ``own_signals=False`` is for a program that runs the command in-process (the tests): its
    signal handlers stay as they are, and its own ``KeyboardInterrupt`` (pytest's Ctrl-C) goes
    back to it as raised, with the run marked interrupted, instead of becoming an exit status."""
    if not own_signals:
        with left_to_caller():
            return _main(args, env, stdout, stderr)
    with stop_on_signals():
        try:
            return _main(args, env, stdout, stderr)
        except KeyboardInterrupt:   # before the command's own handling was in place
            _say(stderr or sys.stderr, "cipherbench: error: interrupted\n")
            return 130


def _pass_back(exc: BaseException | None) -> None:
    """Raise again a ``KeyboardInterrupt`` that is the calling program's, not cipherbench's."""
    if isinstance(exc, KeyboardInterrupt) and not ours(exc):
        raise exc


def _say(stream, text: str) -> None:
    """Write a last line; an unwritable stream (closed, a full disk) loses it, nothing more."""
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        pass


def _main(args: Sequence[str] | None, env: Mapping[str, str] | None, stdout, stderr) -> int:
    import click

    from cipherbench.clikit.context import AppContext
    from cipherbench.errors import UserError
    from cipherbench.output import CheckedStream

    # click 8.2's "no arguments: the help" exception; click 8.1 (Debian 12's python3-click) has
    # none, and naming a missing attribute in an ``except`` would turn every error into a traceback
    no_args_is_help = getattr(click.exceptions, "NoArgsIsHelpError", ())
    args = list(sys.argv[1:] if args is None else args)
    env = dict(os.environ if env is None else env)
    # CheckedStream proxies the TextIO it wraps (write, flush, the rest by attribute)
    app = AppContext(env=env, stdout=cast(TextIO, CheckedStream(stdout or sys.stdout)),
                     stderr=stderr or sys.stderr)
    cli = build_cli()
    try:
        # click prints --help and --version on sys.stdout: send them where we were told
        with contextlib.redirect_stdout(app.stdout):
            rv = cli.main(args=args, prog_name="cipherbench", standalone_mode=False, obj=app)
            app.stdout.flush()   # a full disk is known here, not at the interpreter's exit
    except no_args_is_help as e:  # pragma: no cover - click >= 8.2
        app.stdout.write(e.ctx.get_help() + "\n")
        return 0
    except click.UsageError as e:
        hint = f" (try `{e.ctx.command_path} --help`)" if e.ctx is not None else ""
        app.error(e.format_message() + hint)
        return 2
    except click.ClickException as e:
        app.error(e.format_message())
        return e.exit_code
    except click.exceptions.Abort as e:   # click's wrapping of a KeyboardInterrupt (or EOF)
        _pass_back(e.__cause__)
        app.error("interrupted")
        return 130
    except KeyboardInterrupt as e:
        _pass_back(e)
        app.error("interrupted")
        return 130
    except UserError as e:
        app.error(str(e))
        return e.exit_code
    except BrokenPipeError:
        return 1
    if isinstance(rv, int):
        return rv
    return 0


def run() -> None:
    """Console entry point: ``sys.exit(main())``. Once the command has given its status, a
    late stop signal is ignored rather than turning it into a silent 143."""
    rc = main()
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    try:
        sys.stdout.flush()
    except OSError:
        # what could not be written is said already; the interpreter's own flush at exit
        # would only add "Exception ignored" and change the status
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(rc)
