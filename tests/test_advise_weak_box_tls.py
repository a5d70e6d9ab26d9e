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
    """Records what gather plans, announces and measures; the record layer succeeds or fails
    as told."""
    tls_rc: int = 0
    calls: list[tuple] = field(default_factory=list)
    announced: list[tuple] = field(default_factory=list)
    done: list = field(default_factory=list)    # what gather reloads the evidence after

    def plan_tls(self, lib, profile=None):
        return ("tls", lib, profile)

    def plan_primitive(self, libs, algos, no_hw=False):
        return ("primitive", tuple(libs), no_hw)

    def announce(self, planned):
        self.announced += planned

    def measure(self, planned):
        self.calls.append(planned)
        return _Done(self.tls_rc if planned[0] == "tls" else 0)

    def tls(self, lib, profile=None):
        return self.measure(self.plan_tls(lib, profile))

    def primitive(self, libs, algos, no_hw=False):
        return self.measure(self.plan_primitive(libs, algos, no_hw))


def _gather(env, measurer):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        gather(s, [TARGETS["tls-server"]], lib="openssl", host=None, assume_no_aes=True,
               measurer=measurer)
    return measurer.calls


def test_weak_box_tls_is_the_record_layer_under_the_profile(env):
    calls = _gather(env, FakeMeasurer())
    assert ("tls", "openssl", "no-aes") in calls
    assert not [c for c in calls if c[0] == "primitive" and c[2]]


def test_what_is_measured_is_announced_first_and_fallbacks_are_not(env):
    m = FakeMeasurer(tls_rc=1)
    _gather(env, m)
    assert ("tls", "openssl", "no-aes") in m.announced
    assert ("primitive", ("openssl",), True) in m.calls
    assert ("primitive", ("openssl",), True) not in m.announced


def test_primitives_stand_in_only_when_the_record_layer_fails(env):
    calls = _gather(env, FakeMeasurer(tls_rc=1))
    assert ("tls", "openssl", "no-aes") in calls
    assert ("primitive", ("openssl",), True) in calls
