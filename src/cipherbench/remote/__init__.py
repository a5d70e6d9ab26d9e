"""Measuring another machine through ssh (``cipherbench run --host``): the probe of the host
(``probe``), the core run there and the cleanup (``host``), the failures as one-line errors
(``errors``), and the stored run's load read on the host (``recording``)."""
from cipherbench.remote.errors import HostLost, RemoteError
from cipherbench.remote.host import RemoteCores, RemoteHost, check_destination

__all__ = ["HostLost", "RemoteCores", "RemoteError", "RemoteHost", "check_destination"]
