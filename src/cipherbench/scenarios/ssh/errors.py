# SPDX-License-Identifier: GPL-3.0-or-later
"""What can go wrong with one ssh transfer, as one-line messages.

``ssh`` reports every failure on stderr with exit status 255. ``classify`` turns that text into
a typed error: ``CipherRefused`` concerns one cipher or MAC (the sweep goes on with the others),
``HostError`` concerns the host itself (unreachable, authentication, host key): every further
attempt would fail the same way, so the sweep stops.
"""
from __future__ import annotations


class SshError(Exception):
    """One transfer failed; ``str(err)`` is one line saying why."""

    #: True when every further transfer to the same host would fail the same way.
    fatal = False


class CipherRefused(SshError):
    """The cipher or MAC is unknown to the client or refused by the server."""


class TransferFailed(SshError):
    """The transfer started but did not complete (or the data arrived changed)."""


class HostError(SshError):
    """The host cannot be used at all: unreachable, authentication refused, host key mismatch."""

    fatal = True


# (substring of ssh's stderr, error class, message template). First match wins.
_PATTERNS: list[tuple[str, type[SshError], str]] = [
    ("no matching cipher found", CipherRefused, "{host} refuses cipher {cipher}"),
    ("no matching mac found", CipherRefused, "{host} refuses MAC {mac}"),
    ("unknown cipher type", CipherRefused, "this ssh client does not know cipher {cipher}"),
    ("bad ssh2 cipher spec", CipherRefused, "this ssh client does not know cipher {cipher}"),
    ("bad ssh2 mac spec", CipherRefused, "this ssh client does not know MAC {mac}"),
    ("unknown mac type", CipherRefused, "this ssh client does not know MAC {mac}"),
    ("remote host identification has changed", HostError,
     "host key of {host} does not match the known one (ssh says it changed): check known_hosts"),
    ("host key verification failed", HostError,
     "host key of {host} could not be verified: connect once with plain ssh to accept it"),
    ("no matching host key type", HostError, "{host} offers no host key type this client accepts"),
    ("permission denied", HostError,
     "{host} refused authentication (non-interactive: needs a key or agent, no password)"),
    ("could not resolve hostname", HostError, "cannot resolve host name of {host}"),
    ("connection refused", HostError, "{host} is unreachable: connection refused"),
    ("connection timed out", HostError, "{host} is unreachable: connection timed out"),
    ("operation timed out", HostError, "{host} is unreachable: connection timed out"),
    ("no route to host", HostError, "{host} is unreachable: no route to host"),
    ("network is unreachable", HostError, "{host} is unreachable: network is unreachable"),
    ("connection closed by", HostError, "{host} closed the connection before login"),
    ("kex_exchange_identification", HostError, "{host} closed the connection before login"),
]


def last_line(text: str) -> str:
    """The last non-empty line of ``text`` (ssh puts the real reason last), or ''."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def classify(stderr: str, *, host: str, cipher: str, mac: str | None) -> SshError:
    """Turn ssh's stderr from a failed run into one typed, one-line error."""
    low = stderr.lower()
    for needle, cls, template in _PATTERNS:
        if needle in low:
            return cls(template.format(host=host, cipher=cipher, mac=mac or "(implicit)"))
    detail = last_line(stderr) or "no message from ssh"
    return TransferFailed(f"ssh to {host} with {cipher}{'/' + mac if mac else ''} failed: {detail}")
