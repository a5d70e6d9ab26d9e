# SPDX-License-Identifier: GPL-3.0-or-later
"""Turn stored gpg-scenario results into table rows, the verdicts against gpg's default cipher
and the answer line (no printing here)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from cipherbench import catalog
from cipherbench.analysis import verdict as V
from cipherbench.display.format import format_rate
from cipherbench.scenarios.gpg import backup as B
from cipherbench.scenarios.gpg import figure as F
from cipherbench.scenarios.gpg.programs import GPG_TO_CFB
from cipherbench.store import Result
from cipherbench.units import format_bytes, format_duration

#: The catalog entry whose grade stands for a gpg algorithm: its cipher in CFB (OpenPGP's
#: mode) where the catalog has it, else the same cipher's CBC entry (same block cipher,
#: same 64- or 128-bit block: the grade follows the cipher).
_GRADE_OF = {"aes-192-cfb": "aes-192-cbc", "twofish-256-cfb": "twofish-256-cbc",
             "camellia-128-cfb": "camellia-128-cbc", "camellia-192-cfb": "camellia-128-cbc",
             "camellia-256-cfb": "camellia-256-cbc", "cast5-cfb": "cast5-cbc",
             "blowfish-cfb": "blowfish-cbc", "3des-cfb": "3des-cbc", "idea-cfb": "idea-cbc"}

#: The two tables a gpg run is drawn as, each narrow enough for an 80-column terminal: the
#: answer (rates and backup time), then where the time goes (fixed cost, crypto alone, gpg's
#: own share).
HEADER = ["algorithm", "grade", "encrypt", "decrypt", "{size}: wall", "CPU"]
COST_HEADER = ["algorithm", "fixed/run", "CFB+MDC alone", "gpg overhead"]
#: The overhead cell when gpg measured at least as fast as its crypto alone.
WITHIN_NOISE = "—"
LEGEND = ("algorithm: gpg --cipher-algo, or age (ChaCha20-Poly1305). fixed/run: one run of "
          "an empty message (start, key derivation). CFB+MDC alone: the cipher in CFB mode and the SHA-1 checksum (MDC) in libgcrypt, without gpg. "
          "gpg overhead: the share of gpg's bulk time spent outside that crypto; "
          f"{WITHIN_NOISE} = gpg measured as fast as the crypto alone (within noise).")


def gpg_grade(tool: str, algo: str) -> catalog.Grade | None:
    """The catalog grade of a gpg --cipher-algo (or of age's ChaCha20-Poly1305)."""
    name = "chacha20-poly1305" if tool == "age" else GPG_TO_CFB.get(algo.upper(), "")
    for candidate in (name, _GRADE_OF.get(name, "")):
        entry = catalog.get(candidate) if candidate else None
        if entry is not None:
            return entry.grade
    return None


@dataclass
class GpgRow:
    """One tool and algorithm: its rates (bytes/s) and what they mean for a backup."""

    tool: str
    algo: str
    grade: catalog.Grade | None
    encrypt: float | None
    decrypt: float | None
    alone: float | None              # the cipher alone in CFB mode (bytes/s)
    overhead: float | None           # share of gpg's bulk time outside cipher + MDC
    error: str | None = None
    fixed_s: float | None = None     # seconds of one encryption of an empty message
    size: int | None = None          # bytes of the measured message
    crypto: float | None = None      # cipher alone and SHA-1 MDC together (bytes/s)
    within_noise: bool = False       # gpg measured at least as fast as ``crypto``
    is_default: bool = False         # gpg's own default cipher: the reference of the ratios
    versus: dict[str, V.Verdict] = field(default_factory=dict)   # op -> against the default
    #: encryption's figures from the paired rounds, each round's call less its empty call
    #: (``backup.bulk``; None for a run stored before the rounds)
    bulk: B.Bulk | None = None
    #: the bulk against gpg's default cipher for a whole backup (``bulk_versus_default``)
    bulk_versus: V.Verdict | None = None

    @property
    def label(self) -> str:
        """The algorithm cell: gpg's --cipher-algo name, or "age"."""
        return "age" if self.tool == "age" else self.algo

    @property
    def per_byte_s(self) -> float | None:
        """Seconds per byte once the fixed cost of a run is taken out (the bulk rate): from
        the rounds, the figure of the table (CPU time where read, else wall time); for rows
        stored before them, the figure less the row's own fixed cost."""
        if self.bulk is not None:
            return self.bulk.cpu_per_byte if self.bulk.cpu_per_byte is not None \
                else self.bulk.wall_per_byte
        if not self.encrypt or not self.size:
            return None
        total = self.size / self.encrypt
        return max(total - (self.fixed_s or 0.0), total * 0.01) / self.size

    def backup_seconds(self, backup_size: int) -> float | None:
        """Seconds of the table's figure to encrypt ``backup_size`` bytes: the fixed cost plus
        the bulk rate (CPU seconds for rows measured in rounds with CPU times)."""
        if self.bulk is not None:
            cpu = self.bulk.cpu_s(backup_size)
            return cpu if cpu is not None else self.bulk.wall_s(backup_size)
        if self.per_byte_s is None:
            return None
        return (self.fixed_s or 0.0) + backup_size * self.per_byte_s

    def backup_time(self, backup_size: int, disk: B.Disk | None = None) -> B.BackupTime | None:
        """The whole backup: gpg's wall-clock time and CPU time from the paired rounds, capped
        by ``disk``; for rows stored before the rounds, their wall-time figure alone."""
        if self.bulk is not None:
            return B.backup_time(self.bulk, backup_size, disk)
        secs = self.backup_seconds(backup_size)
        return None if secs is None else B.BackupTime(backup_size, secs, None, disk)


def rows_from_results(results: Iterable[Result]) -> list[GpgRow]:
    """Rows ranked by the time a large backup takes (bulk rate), failures last."""
    results = [r for r in results if r.scenario == "gpg"]
    alone = {r.extra.get("gpg_algo"): r.median for r in results
             if r.extra.get("role") == "cipher-alone"}
    sha1 = next((r.median for r in results if r.extra.get("role") == "mdc-hash"), None)
    rows: dict[tuple[str, str], GpgRow] = {}
    for r in results:
        if r.lib not in ("gnupg", "age"):
            continue
        row = rows.setdefault((r.lib, r.algo), GpgRow(r.lib, r.algo, gpg_grade(r.lib, r.algo),
                                                      None, None, None, None))
        if r.metric == "error":
            row.error = r.extra.get("message", "failed")
        elif r.size == 0:
            if r.op == "encrypt":
                # stored as seconds; runs before that stored 0 B/s and the seconds in extra
                row.fixed_s = r.median if r.metric == "seconds" else r.extra.get("wall_s")
        else:
            setattr(row, r.op, r.median)
            if r.op == "encrypt":
                row.size = r.size
    default = next((r.extra.get("default_cipher") for r in results
                    if r.extra.get("default_cipher")), None)
    verdicts = versus_default(results)
    for key, b in bulks(results).items():
        if key in rows:
            rows[key].bulk = b
    for key, v in bulk_versus_default(results).items():
        if key in rows:
            rows[key].bulk_versus = v
    for row in rows.values():
        row.is_default = row.tool == "gnupg" and row.algo == default
        row.versus = {op: v for (tool, algo, op), v in verdicts.items()
                      if (tool, algo) == (row.tool, row.algo)}
        if row.tool == "gnupg":
            row.alone = alone.get(row.algo)
        if row.alone and sha1:
            row.crypto = 1 / (1 / row.alone + 1 / sha1)   # both passes over every byte
        if row.per_byte_s and row.crypto:
            row.overhead = overhead(row.per_byte_s, row.crypto)
            row.within_noise = row.overhead is None
    return sorted(rows.values(), key=lambda r: (r.per_byte_s is None, r.per_byte_s or 0))


def _calls(r: Result) -> dict[int, B.Call]:
    return B.calls(r.extra.get("rounds_at"), r.extra.get("samples_s"),
                   r.extra.get("cpu_samples_s"))


def _encrypt_rows(results: Iterable[Result]) -> tuple[dict, dict]:
    """(tool, algo) -> its calls on the data and on the empty message (``backup.Call``s by
    round) and the data's size, for every encryption row measured in rounds."""
    rows = [r for r in results if r.scenario == "gpg" and r.lib in ("gnupg", "age")
            and r.op == "encrypt" and r.metric != "error"]
    empty = {(r.lib, r.algo): _calls(r) for r in rows if r.size == 0}
    data = {(r.lib, r.algo): (_calls(r), r.size) for r in rows
            if r.size and (r.lib, r.algo) in empty}
    return data, empty


def bulks(results: Iterable[Result]) -> dict[tuple[str, str], B.Bulk]:
    """(tool, algo) -> its encryption's ``backup.Bulk``: each round's call on the data less
    its own empty-message call of that round."""
    data, empty = _encrypt_rows(results)
    out = {}
    for key, (calls, size) in data.items():
        b = B.bulk(calls, empty[key], size)
        if b is not None:
            out[key] = b
    return out


def bulk_versus_default(results: Iterable[Result]) -> dict[tuple[str, str], V.Verdict]:
    """(tool, algo) -> its verdict against gpg's default cipher for a whole backup: the bulk
    time per byte (``backup.per_round``), paired per round. The whole-call verdicts of the
    table weigh in each cipher's fixed cost, which a large backup does not feel (AES-256's
    key takes twice the S2K hashing of AES-128's)."""
    results = list(results)
    data, empty = _encrypt_rows(results)
    default = next((r.extra.get("default_cipher") for r in results
                    if r.extra.get("default_cipher")), None)
    figs = {k: B.per_round(calls, empty[k], size) for k, (calls, size) in data.items()}
    base = figs.get(("gnupg", default))
    out = {}
    for key, mine in figs.items():
        if not base or key == ("gnupg", default):
            continue
        both = sorted(set(base) & set(mine))
        if both:
            out[key] = V.verdict([base[i] for i in both], [mine[i] for i in both])
    return out


def disk_of(args: dict, results: Iterable[Result]) -> B.Disk | None:
    """The disk of a stored run: the rate it measured (``disk`` rows), else ``--disk RATE``."""
    for r in results:
        if r.scenario == "gpg" and r.lib == "disk" and r.metric == "bytes_per_s":
            return B.Disk(r.median, r.extra.get("source") or f"measured in {r.algo}")
    text = args.get("disk")
    if text:
        from cipherbench.scenarios.gpg.disk import parse_rate
        bps = parse_rate(str(text))
        if bps:
            return B.Disk(bps, f"--disk {text}")
    return None


def _per_round(r: Result) -> dict[int, float]:
    """Round index -> the per-call figure of one row measured in rounds: CPU seconds
    (``figure.per_round``), or wall seconds for rows stored before CPU times were ({} for
    runs before the rounds)."""
    at, walls = r.extra.get("rounds_at"), r.extra.get("samples_s")
    if not at or not walls or len(at) != len(walls):
        return {}
    return F.per_round(at, walls, r.extra.get("cpu_samples_s"))


def figure_kind(results: Iterable[Result]) -> str | None:
    """What the gpg rows' figures are: ``figure.CPU`` when every row measured in rounds has
    CPU times, ``figure.WALL`` for older rows, None when nothing was measured."""
    kinds = {r.extra.get("figure", F.WALL) for r in results
             if r.scenario == "gpg" and r.lib in ("gnupg", "age") and r.metric != "error"}
    if not kinds:
        return None
    return F.CPU if kinds == {F.CPU} else F.WALL


def calls_left_out(results: Iterable[Result]) -> tuple[int, int]:
    """(calls left out because they lost the CPU, calls measured) over the gpg rows."""
    rows = [r for r in results if r.scenario == "gpg" and r.lib in ("gnupg", "age")
            and r.metric != "error" and r.extra.get("samples_s")]
    return (sum(len(r.extra.get("lost_cpu_at") or []) for r in rows),
            sum(len(r.extra["samples_s"]) for r in rows))


def figure_note(results: Iterable[Result]) -> str:
    """What a rate of the gpg table is, for its title: the CPU time of the fastest call that
    kept the CPU, or (runs stored before) the median call's wall time."""
    results = list(results)
    if figure_kind(results) != F.CPU:
        return "median call, wall time"
    gone, n = calls_left_out(results)
    return (f"CPU time of the fastest call that kept the CPU; {gone} of {n} calls left out "
            "(lost the CPU)")


def versus_default(results: Iterable[Result]) -> dict[tuple[str, str, str], V.Verdict]:
    """(tool, algo, op) -> its verdict against gpg's default cipher of the same operation:
    the speed ratio paired per round (the default's time over its own in each round that
    measured both), from the rounds stored with each row. Rows of runs measured before the
    rounds, and the default itself, have none."""
    rows = [r for r in results if r.scenario == "gpg" and r.lib in ("gnupg", "age")
            and r.metric == "bytes_per_s" and r.size]
    default = next((r.extra.get("default_cipher") for r in rows
                    if r.extra.get("default_cipher")), None)
    base = {r.op: _per_round(r) for r in rows if r.lib == "gnupg" and r.algo == default}
    out = {}
    for r in rows:
        a = base.get(r.op)
        if not a or (r.lib == "gnupg" and r.algo == default):
            continue
        mine = _per_round(r)
        both = sorted(set(a) & set(mine))
        if both:
            out[(r.lib, r.algo, r.op)] = V.verdict([a[i] for i in both], [mine[i] for i in both])
    return out


def verdict_cell(v: V.Verdict) -> str:
    """``faster``, ``slower``, ``cannot tell here (within 3%)`` or why there is no verdict."""
    return v.state if v.decided else v.text()


def format_versus_rows(rows: list[GpgRow]) -> tuple[list[str], list[list[str]]]:
    """Header and cells of the table against gpg's default cipher (one line per algorithm and
    operation); no cells when nothing was measured in rounds."""
    default = next((r for r in rows if r.is_default), None)
    if default is None or not any(r.versus for r in rows):
        return [], []
    header = ["algorithm", "op", f"vs {default.algo}", "95% CI", "verdict"]
    out = []
    for r in rows:
        if r.error:
            continue
        if r is default:
            out.append([r.label, "", "1x", "", "gpg's default: the reference"])
            continue
        for op, v in sorted(r.versus.items(), key=lambda kv: kv[0] != "encrypt"):
            out.append([r.label, op, f"{v.ratio:.2f}x", f"{v.low:.2f}-{v.high:.2f}",
                        verdict_cell(v)])
    return header, out


def versus_title(rows: list[GpgRow], cpu: bool = False) -> str:
    """The title of the table against the default: its reference, its rounds, and (``cpu``)
    that each round's calls are compared by their CPU time."""
    n = max((v.n_rounds for r in rows for v in r.versus.values()), default=0)
    default = next((r.algo for r in rows if r.is_default), "?")
    return (f"speed against gpg's default cipher ({default}), whole calls paired per round "
            f"({n} rounds{', CPU time per call' if cpu else ''}; above 1x: "
            "faster)")


def overhead(per_byte_s: float, crypto_bps: float) -> float | None:
    """The share of gpg's bulk seconds per byte that is not the cipher and MDC work, or None
    when gpg measured as fast as that work or faster (a difference inside the noise, not a
    negative or zero cost)."""
    share = 1 - (1 / crypto_bps) / per_byte_s
    return share if share >= 0.005 else None


def format_rows(rows: list[GpgRow], backup_size: int, size_text: str) -> tuple[list[str],
                                                                              list[list[str]]]:
    """Header and text cells of the gpg table: rates, and a backup's wall-clock and CPU time
    through gpg (not capped by a disk: the answer says which decides)."""
    header = [h.format(size=size_text) for h in HEADER]
    out = []
    for r in rows:
        if r.error:
            out.append([r.label, r.grade.level if r.grade else "", "failed: " + r.error]
                       + [""] * (len(header) - 3))
            continue
        t = r.backup_time(backup_size)
        out.append([r.label, r.grade.level if r.grade else "?",
                    format_rate(r.encrypt), format_rate(r.decrypt),
                    format_duration(t.wall_s) if t else "",
                    format_duration(t.cpu_s) if t and t.cpu_s is not None else ""])
    return header, out


def format_cost_rows(rows: list[GpgRow]) -> tuple[list[str], list[list[str]]]:
    """Header and text cells of the table of where gpg's time goes (measured rows only)."""
    out = []
    for r in rows:
        if r.error:
            continue
        if r.within_noise:
            share = WITHIN_NOISE
        else:
            share = f"{r.overhead * 100:.0f}%" if r.overhead is not None else ""
        out.append([r.label, format_duration(r.fixed_s) if r.fixed_s is not None else "",
                    format_rate(r.crypto) if r.crypto else "", share])
    return list(COST_HEADER), out


def answer(rows: list[GpgRow], backup_size: int, size_text: str,
           disk: B.Disk | None = None) -> str:
    """One sentence answering "which --cipher-algo encrypts my backup fastest", and how long
    the whole backup takes (wall-clock, with the CPU time, and the disk when it decides)."""
    rows = sorted(rows, key=lambda r: r.backup_seconds(backup_size) or float("inf"))
    ok = [(r, per_byte) for r in rows if r.encrypt and r.grade and r.grade.level in
          ("recommended", "acceptable") and (per_byte := r.per_byte_s) is not None]
    if not ok:
        return "no algorithm that is neither legacy nor broken could be measured"
    best, best_per_byte = ok[0]
    what = "age" if best.tool == "age" else f"gpg --cipher-algo {best.algo}"
    text = f"fastest sound choice here: {what}, {format_rate(1 / best_per_byte)} in bulk"
    t = best.backup_time(backup_size, disk)
    if t is not None:
        text += "; " + t.text(what, size_text)
    slowest = ok[-1][0]
    st = slowest.backup_time(backup_size, disk)
    if slowest is not best and st is not None:
        text += (f" (the slowest sound one, {slowest.algo}: "
                 f"{format_duration(st.total_s)})")
    v = best.bulk_versus
    nxt = next((r for r, _ in ok[1:] if r.bulk_versus is not None), None) if best.is_default \
        else None
    nxt_v = nxt.bulk_versus if nxt is not None else None
    if v is not None and v.ratio is not None:
        text += f"; its bulk against gpg's default, paired per round: {_bulk_text(v)}"
    elif nxt is not None and nxt_v is not None and nxt_v.ratio is not None:
        text += (f"; it is gpg's default, and the next, {nxt.algo}, against it in bulk, paired "
                 f"per round: {_bulk_text(nxt_v)}")
    legacy = [r for r in rows if r.encrypt and r.grade and r.grade.level in ("legacy", "broken")]
    legacy_s = legacy[0].backup_seconds(backup_size) if legacy else None
    best_s = best.backup_seconds(backup_size)
    if legacy_s is not None and best_s is not None and legacy_s >= best_s:
        text += f"; no legacy cipher is faster (best of them: {legacy[0].algo})"
    return text


def _bulk_text(v: V.Verdict) -> str:
    if v.decided:
        return (f"{v.ratio:.2f}x {v.state} (95% CI {v.low:.2f}-{v.high:.2f}, {v.n_rounds} "
                "paired rounds)")
    return v.text()


def how_long(rows: list[GpgRow], tool: str, algo: str, backup_size: int,
             disk: B.Disk | None, hint: str = "--link RATE") -> str:
    """``advise``'s line for the chosen gpg cipher (or age): the whole backup's wall-clock
    and CPU time from the run's paired rounds, and which decides; "" when not measured."""
    row = next((r for r in rows if r.tool == tool and (tool == "age" or r.algo == algo)), None)
    t = row.backup_time(backup_size, disk) if row is not None else None
    if t is None:
        return ""
    what = "age" if tool == "age" else f"gpg --cipher-algo {algo}"
    return f" How long: {t.text(what, format_bytes(backup_size), hint)}."
