# SPDX-License-Identifier: GPL-3.0-or-later
"""gpg (and age) on this machine: a private GnuPG home (``home``), the data held in memory,
every call fed through a pipe and timed by wait4 (``interleaved.LocalCalls``). The
counterpart of ``on_host.HostGpg``: ``scenario.measure`` runs the same rounds on either."""
from __future__ import annotations

from contextlib import ExitStack
from typing import Mapping

from cipherbench.scenarios.gpg import interleaved
from cipherbench.scenarios.gpg.candidates import AgeTool, GpgTool, random_data
from cipherbench.scenarios.gpg.home import GpgHome, private_gnupg_home


class LocalGpg:
    """``with LocalGpg(gpg, age, env, cpu) as place``."""

    def __init__(self, gpg: str, age: str | None, env: Mapping[str, str] | None,
                 cpu: int | None = None):
        self.gpg, self.age, self.env, self.cpu = gpg, age, env, cpu
        self.tools: dict[str, GpgTool | AgeTool] = {}
        self.data = bytearray()
        self._stack = ExitStack()
        self.home: GpgHome | None = None

    def __enter__(self) -> "LocalGpg":
        self.home = self._stack.enter_context(private_gnupg_home(self.env))
        if self.gpg:
            self.tools["gpg"] = GpgTool(self.gpg, self.home)
        return self

    def __exit__(self, *exc) -> None:
        self._stack.__exit__(*exc)

    def _home(self) -> GpgHome:
        assert self.home is not None, "used outside its with block"
        return self.home

    def default_cipher(self) -> str:
        home = self._home()
        return interleaved.default_cipher(self.gpg, home.gpg_args(), home.env)

    def prepare(self, size: int, copies: int) -> None:  # noqa: ARG002 - held in memory
        self.data = random_data(size)

    def start_age(self) -> None:
        """age's identity in the home (``CandidateFailed`` when age-keygen fails)."""
        home = self._home()
        self.tools["age"] = AgeTool(self.age or "age", home, home.env)

    def calls(self) -> interleaved.LocalCalls:
        return interleaved.LocalCalls(self.tools, self.data, self._home().env, self.cpu)
