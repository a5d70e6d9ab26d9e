# SPDX-License-Identifier: GPL-3.0-or-later
"""`advise --assume-no-aes` for a TLS server with nothing stored: the weak-box answer is the
TLS record layer measured under --cpu-profile no-aes, the primitives only where that fails."""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench.advise.gather import gather
from cipherbench.advise.targets import TARGETS
from cipherbench.store import Store


@dataclass
class _Done:
    rc: int


@dataclass
class FakeMeasurer:
    """Records what gather asks for; the record layer succeeds or fails as told."""
    tls_rc: int = 0
    calls: list[tuple] = field(default_factory=list)
    done: list = field(default_factory=list)    # what gather reloads the evidence after

    def tls(self, lib, profile=None):
        self.calls.append(("tls", lib, profile))
        return _Done(self.tls_rc)

    def primitive(self, libs, algos, no_hw=False):
        self.calls.append(("primitive", tuple(libs), no_hw))
        return _Done(0)


def _gather(env, measurer):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        gather(s, [TARGETS["tls-server"]], lib="openssl", host=None, assume_no_aes=True,
               measurer=measurer)
    return measurer.calls


def test_weak_box_tls_is_the_record_layer_under_the_profile(env):
    calls = _gather(env, FakeMeasurer())
    assert ("tls", "openssl", "no-aes") in calls
    assert not [c for c in calls if c[0] == "primitive" and c[2]]


def test_primitives_stand_in_only_when_the_record_layer_fails(env):
    calls = _gather(env, FakeMeasurer(tls_rc=1))
    assert ("tls", "openssl", "no-aes") in calls
    assert ("primitive", ("openssl",), True) in calls
