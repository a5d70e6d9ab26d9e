# SPDX-License-Identifier: GPL-3.0-or-later
"""Errors that end a command with one clear line on stderr instead of a traceback.

Every error a user can cause (bad arguments, a missing core, an unwritable database) is a
``UserError``; the CLI prints ``cipherbench: error: <message>`` and exits with ``exit_code``.
"""


class UserError(Exception):
    """A problem the user can fix; ``str(err)`` says what is wrong and how to fix it."""

    exit_code = 2

    def __init__(self, message: str, exit_code: int | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(UserError):
    """Bad command-line input (exit status 2)."""

    exit_code = 2


class EnvironmentProblem(UserError):
    """Something on the machine is missing or not usable: the core, the database (exit 1)."""

    exit_code = 1
