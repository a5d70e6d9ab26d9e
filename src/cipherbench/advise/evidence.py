"""Evidence: the latest stored results relevant to a target, and quick measurements of what is
missing.

Rates are bytes per second. Where the real path (ssh, tls, gpg) was measured it is used;
otherwise the same cipher's primitive rate stands in, and the output says so. Runs whose
metadata records switched-off hardware (``hw_disabled``, written by ``--no-hw`` runs: a list
of features such as ``["aes", "pclmul"]``, ``"all"`` or ``true``; a dict per library is read
the same way) describe another machine: they are used only for ``--assume-no-aes`` and never
otherwise. Runs measured on another host (``run --host``: metadata ``host``) describe that
host: with ``--host`` the newest of them gives the ssh ranking its primitives (the far end's
CPU); they never stand for this machine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from cipherbench.advise.candidates import Candidate, suite_by_name
from cipherbench.store import Result, Run, Store
from cipherbench.units import rate

#: Message size whose primitive rate stands for bulk transfers (a TLS record).
PREFERRED_SIZE = 16384
#: The metadata key of runs measured with hardware acceleration switched off.
HW_DISABLED_KEY = "hw_disabled"
#: The metadata key of runs measured on another host (``run --host``).
HOST_KEY = "host"


def same_host(a: str, b: str) -> bool:
    """``me@nas`` and ``nas`` name the same host."""
    return a.rpartition("@")[2] == b.rpartition("@")[2]


@dataclass(frozen=True)
class Rate:
    """A measured (or estimated) rate and where it came from."""

    bps: float
    source: str                 # ssh, tls, gpg, primitive, estimate
    run_ids: tuple[int, ...]
    detail: str
    stand_in: bool = False      # a primitive standing in for the real path
    estimated: bool = False
    rel_ci: float | None = None  # half-width of the 95% CI of the median / the median

    def overlaps(self, other: "Rate") -> bool:
        """True when the two rates cannot be told apart: their 95% intervals overlap (without
        intervals, when they are within 3% of each other)."""
        if self.rel_ci is None or other.rel_ci is None:
            return abs(self.bps / other.bps - 1) < 0.03 if other.bps else False
        return (self.bps * (1 - self.rel_ci) <= other.bps * (1 + other.rel_ci) and
                other.bps * (1 - other.rel_ci) <= self.bps * (1 + self.rel_ci))


def rel_ci(r: Result) -> float | None:
    """Relative half-width of a stored result's confidence interval (any metric)."""
    if r.ci_low is None or r.ci_high is None or not r.median:
        return None
    return abs(r.ci_high - r.ci_low) / (2 * abs(r.median))


def disables_aes(value) -> bool:
    """True if a ``hw_disabled`` metadata value covers the AES instructions."""
    if value is True:
        return True
    if isinstance(value, str):
        return value.lower() in ("all", "aes", "true") or "aes" in value.lower().split(",")
    if isinstance(value, (list, tuple)):
        return any(disables_aes(v) for v in value)
    if isinstance(value, Mapping):
        return bool(value) and all(disables_aes(v) for v in value.values())
    return False


@dataclass
class Primitive:
    """The newest primitive point of a (lib, algo, op)."""

    result: Result
    run: Run

    @property
    def bps(self) -> float:
        """Bytes per second at this point."""
        return rate(self.result.size, self.result.median) or 0.0


@dataclass
class Evidence:
    """What the store holds for the advisor, newest first."""

    primitive: dict[tuple[str, str, str], Primitive] = field(default_factory=dict)
    ssh_run: Run | None = None
    ssh: dict[str, Result] = field(default_factory=dict)      # algo -> bytes_per_s result
    gpg_run: Run | None = None
    gpg_rows: list = field(default_factory=list)               # scenarios.gpg.tables.GpgRow
    tls: dict[tuple[str, str], tuple[Result, Run]] = field(default_factory=dict)
    no_aes_runs: bool = False    # primitive/tls figures come from hardware-disabled runs
    cpu_flags: list[str] | None = None
    cpu_model: str = ""
    host: str | None = None      # --host, when a primitive run of that host is stored
    host_primitive: dict[tuple[str, str, str], Primitive] = field(default_factory=dict)

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, store: Store, *, assume_no_aes: bool = False,
             host: str | None = None) -> "Evidence":
        """Gather the newest relevant results. With ``assume_no_aes``, primitive and tls
        figures come only from runs that switched AES off, when the store has any."""
        ev = cls()
        runs = [r for r in reversed(store.runs()) if r.command != "advise" and r.n_results
                and r.status in ("complete", "interrupted")]
        on_host = [r for r in runs if r.metadata.get(HOST_KEY)]   # another machine's runs
        runs = [r for r in runs if not r.metadata.get(HOST_KEY)]
        hw_off = [r for r in runs if disables_aes(r.metadata.get(HW_DISABLED_KEY))]
        normal = [r for r in runs if not r.metadata.get(HW_DISABLED_KEY)]
        if assume_no_aes and any(_has(store, r, ("primitive", "tls")) for r in hw_off):
            ev.no_aes_runs = True
            fast_paths = hw_off
        else:
            fast_paths = normal
        for run in fast_paths:
            for r in store.results(run.id, "primitive"):
                ev._add_primitive(r, run)
            for r in store.results(run.id, "tls"):
                ev._add_tls(r, run)
        want_host = host or None
        for run in normal:
            if ev.ssh_run is None and run.command == "ssh":
                run_host = str(run.args.get("host") or "")
                if (want_host is None and run_host.startswith("127.0.0.1")) or \
                        (want_host is not None and run_host == want_host):
                    heads = [r for r in store.results(run.id, "ssh")
                             if r.metric == "bytes_per_s"]
                    if heads:
                        ev.ssh_run = run
                        ev.ssh = {r.algo: r for r in heads}
            if ev.gpg_run is None and run.command == "gpg":
                from cipherbench.scenarios.gpg.tables import rows_from_results
                rows = [row for row in rows_from_results(store.results(run.id, "gpg"))
                        if row.per_byte_s]
                if rows:
                    ev.gpg_run, ev.gpg_rows = run, rows
        if host:
            ev._load_host(store, host, on_host)
        first = next(iter(fast_paths), None) or next(iter(runs), None)
        if first is not None:
            ev.cpu_flags = first.metadata.get("cpu_flags")
            ev.cpu_model = first.metadata.get("cpu_model", "")
        return ev

    def _load_host(self, store: Store, host: str, runs: list[Run]) -> None:
        """The primitives of the newest run measured on ``host`` (with its hardware on)."""
        for run in runs:
            if same_host(str(run.metadata.get(HOST_KEY)), host) and run.command == "run" \
                    and not run.metadata.get(HW_DISABLED_KEY):
                for r in store.results(run.id, "primitive"):
                    self._add_primitive(r, run, self.host_primitive)
                if self.host_primitive:
                    self.host = host
                    return

    def on_host(self) -> "Evidence":
        """The evidence of the host's primitives alone (for the ssh ranking)."""
        return Evidence(primitive=self.host_primitive)

    def _add_primitive(self, r: Result, run: Run,
                       into: dict[tuple[str, str, str], Primitive] | None = None) -> None:
        if r.metric != "ns_per_op" or not r.size or r.median <= 0:
            return
        into = self.primitive if into is None else into
        key = (r.lib, r.algo, r.op)
        have = into.get(key)
        if have is None or _better_size(r.size, have.result.size) and have.run.id == run.id:
            into[key] = Primitive(r, run)

    def _add_tls(self, r: Result, run: Run) -> None:
        if r.op != "transfer":  # handshakes, and loopback transfers through the kernel
            return
        suite = suite_by_name(str(r.extra.get("iana") or r.extra.get("suite") or r.algo))
        bps = tls_bps(r)
        if suite is None or bps is None:
            return
        key = (r.lib, suite.iana)
        have = self.tls.get(key)
        if have is None or (have[1].id == run.id and _better_size(r.size, have[0].size)):
            self.tls[key] = (r, run)

    # -- rates -------------------------------------------------------------------------------
    def primitive_bps(self, algo: str, libs: Iterable[str], op: str = "encrypt"
                      ) -> tuple[float, Primitive] | None:
        """The rate of an algorithm in the first of ``libs`` that has it."""
        for lib in libs:
            p = self.primitive.get((lib, algo, op))
            if p is not None:
                return p.bps, p
        return None

    def libs_with(self, algo: str, op: str = "encrypt") -> list[str]:
        """Libraries with a stored point of this algorithm."""
        return [lib for (lib, a, o) in self.primitive if a == algo and o == op]


def _has(store: Store, run: Run, scenarios: tuple[str, ...]) -> bool:
    return any(store.results(run.id, s) for s in scenarios)


def _better_size(new: int | None, old: int | None) -> bool:
    """Prefer the TLS-record size, then the largest."""
    if old == PREFERRED_SIZE:
        return False
    if new == PREFERRED_SIZE:
        return True
    return (new or 0) > (old or 0)


def tls_bps(r: Result) -> float | None:
    """Bytes per second of a stored tls transfer result, whatever its metric."""
    if r.metric in ("bytes_per_s", "throughput") and r.median > 0:
        return r.median
    if r.metric == "ns_per_op" and r.size and r.median > 0:
        return rate(r.size, r.median)
    v = r.extra.get("bytes_per_s")
    return float(v) if isinstance(v, (int, float)) and v > 0 else None


# -- measuring what is missing -----------------------------------------------------------------
#: Primitives the TLS stand-in, LUKS and the SSH fallback need.
TLS_ALGOS = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ccm", "aes-128-cbc",
             "aes-256-cbc", "camellia-128-cbc", "3des-cbc", "rc4", "hmac-sha1", "hmac-sha256",
             "hmac-sha512", "hmac-md5")
LUKS_ALGOS = ("aes-128-xts", "aes-256-xts", "aes-128-cbc", "aes-256-cbc", "camellia-256-cbc",
              "twofish-256-cbc", "serpent-256-cbc")
SSH_ALGOS = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ctr", "aes-192-ctr",
             "aes-256-ctr", "aes-128-cbc", "aes-256-cbc", "3des-cbc", "blowfish-cbc",
             "cast5-cbc", "rc4", "hmac-sha256", "hmac-sha512", "hmac-sha1", "umac-64",
             "umac-128", "hmac-md5")
def candidate_rate_key(c: Candidate) -> str:
    """Stable key of a candidate within its family (for JSON and the store)."""
    return f"{c.family}:{c.key}"
