# SPDX-License-Identifier: GPL-3.0-or-later
"""Measuring another machine through ssh (``cipherbench run --host``): the probe of the host
(``probe``), the session with the host, its core and the cleanup (``host``), shipping this
machine's core (``ship``), the cores there as one core (``cores``), the failures as one-line
errors (``errors``), and the stored run's load read on the host (``recording``)."""
from cipherbench.remote.errors import HostLost, RemoteError
from cipherbench.remote.cores import RemoteCores
from cipherbench.remote.host import RemoteHost, check_destination

__all__ = ["HostLost", "RemoteCores", "RemoteError", "RemoteHost", "check_destination"]
