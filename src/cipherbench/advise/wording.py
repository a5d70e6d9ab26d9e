# SPDX-License-Identifier: GPL-3.0-or-later
"""Every sentence of the answer, rendered from an ``AnswerVerdict`` (pure: records in, text
out). The headline and the conclusion depend on the verdict's states and names only, never
on a figure, so runs whose verdicts agree print them alike; the figures (rates, ratios,
intervals) go to their own line; the deciding layer and run to another.
"""
from __future__ import annotations

from cipherbench.advise import verdicts as A
from cipherbench.advise.evidence import LeftOut
from cipherbench.analysis import cpu_figure
from cipherbench.units import format_rate


def headline(v: A.AnswerVerdict) -> str:
    """What to do, in one sentence."""
    if v.state == A.NOT_MEASURED:
        return (f"For {v.target}: not measured, so nothing is recommended; run "
                f"`{v.remedy}` to measure it.")
    if v.state == A.NONE_ALLOWED:
        return (f"For {v.target}, the {v.policy} policy allows none of the candidates this "
                "machine has; see the table for why.")
    if v.state == A.KEEP_DEFAULT:
        return f"For {v.target}, keep the default, {v.choice}."
    return f"For {v.target}, use {v.choice}."


def conclusion(v: A.AnswerVerdict) -> str:
    """Why, in one sentence: the choice against the default, from the verdict's states."""
    if v.state == A.NOT_MEASURED:
        return ("No allowed choice was measured here: no rate, ranking or default claim "
                "without evidence.")
    if v.state == A.NONE_ALLOWED:
        return "Nothing to recommend."
    if v.state == A.KEEP_DEFAULT:
        if v.closest is None:
            return f"It is the only choice the {v.policy} policy allows that was measured."
        # the closest choice is named with the figures: which one is closest is noise
        return f"No choice the {v.policy} policy allows is measurably faster here."
    return {
        A.FASTER: f"It is measurably faster than the default ({v.default}).",
        A.ONLY_CHOICE: f"It is the only choice the {v.policy} policy allows that was measured.",
        A.DEFAULT_UNKNOWN: (f"The fastest choice the {v.policy} policy allows here; the "
                            f"tool's default is not known ({v.default_source}), so whether "
                            "it is already the default is not said."),
        A.DEFAULT_NOT_MEASURED: (f"The fastest choice the {v.policy} policy allows here; "
                                 f"the default ({v.default}) was not measured beside it."),
        A.DEFAULT_NOT_ALLOWED: (f"The fastest choice the {v.policy} policy allows here; the "
                                f"default ({v.default}) is not allowed."),
    }[v.against_default or A.DEFAULT_UNKNOWN]


def answer(v: A.AnswerVerdict) -> str:
    """Headline and conclusion: what users copy."""
    return f"{headline(v)} {conclusion(v)}"


def figures(v: A.AnswerVerdict) -> str:
    """The numbers behind the verdict, in one line (empty when nothing was measured)."""
    if not v.recommends or v.choice_rate is None:
        return ""
    parts = [f"{v.choice}: {format_rate(v.choice_rate.bps)}"
             + (" (estimated)" if v.choice_rate.estimated else "")]
    c = v.versus
    if c is not None:
        x = c.verdict
        what = ("work per CPU second" if c.figure == cpu_figure.CPU else "speed")
        rounds = f", {x.n_rounds} rounds" if x.n_rounds else ""
        if v.state == A.KEEP_DEFAULT:
            parts.append(f"closest, {v.closest}, against it: {x.text()} ({c.basis})")
        elif x.ratio is not None and x.low is not None and x.high is not None:
            parts.append(f"{x.ratio:.2f}x the default's {what} (95% CI {x.low:.2f}-"
                         f"{x.high:.2f}{rounds}; {c.basis})")
    elif v.state == A.USE and v.default:
        parts.append(f"default {v.default}: {v.against_default}")
    return "; ".join(parts) + "."


def decided_by(v: A.AnswerVerdict, passed_over: list[LeftOut]) -> str:
    """Which layer and run decided, and why a newer run was not used (one line)."""
    if not v.layer:
        return ""
    runs = ", ".join(map(str, v.runs)) or "none"
    text = f"Decided by {v.layer}, run{'s' if len(v.runs) > 1 else ''} {runs}"
    if v.above:
        text += (f" (nothing allowed measured by {' or '.join(v.above)}: `{v.remedy}` "
                 "measures it)")
    newer = [x for x in passed_over if not v.runs or x.run_id > max(v.runs)]
    if newer:
        text += "; newer " + "; ".join(f"run {x.run_id} not used: {x.reason}"
                                       for x in newer[:3])
        if len(newer) > 3:
            text += f"; and {len(newer) - 3} more"
    else:
        text += "; no newer run of this kind"
    return text + "."


def against_default_cell(v: A.AnswerVerdict) -> str:
    """The summary table's "against the default" cell."""
    if not v.recommends:
        return "-"
    if v.state == A.KEEP_DEFAULT:
        return "is the default"
    if v.against_default == A.FASTER and v.versus is not None and v.versus.verdict.ratio:
        return f"{v.versus.verdict.ratio:.2f}x faster"
    return v.against_default or ""


def no_path(v: A.AnswerVerdict) -> str:
    """The bottleneck line where no path was measured beside the cipher."""
    if not v.recommends:
        return "No allowed choice was measured, so the bottleneck cannot be told."
    return ("No path was measured beside the cipher, so whether crypto is the bottleneck is "
            "not told here (give your link or disk rate with --link SPEED).")


#: A fleet summary names at most this many machines of a group (the group's config header
#: names them all).
FLEET_NAMES = 8


def names_text(names: tuple[str, ...] | list[str], limit: int = FLEET_NAMES) -> str:
    """``h4, h9, h12`` or ``h1, ..., h8 and 29 more``."""
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def group_phrase(v: A.AnswerVerdict, n: int) -> str:
    """What one group of machines is told, from its shared verdict: ``keep the default
    (chacha20-poly1305@openssh.com) on 30``, ``aes128-gcm@openssh.com measurably faster on
    7``."""
    if v.state == A.NOT_MEASURED:
        return f"not measured on {n}"
    if v.state == A.NONE_ALLOWED:
        return f"nothing the {v.policy} policy allows on {n}"
    if v.state == A.KEEP_DEFAULT:
        return f"keep the default ({v.choice}) on {n}"
    if v.against_default == A.FASTER:
        return f"{v.choice} measurably faster on {n}"
    return f"{v.choice}, the fastest allowed ({v.against_default}), on {n}"


def fleet_sentence(target: str, n: int, groups: list[tuple[A.AnswerVerdict, tuple[str, ...]]]
                   ) -> str:
    """``37 hosts, ssh: keep the default (...) on 30; aes128-gcm@openssh.com measurably faster
    on 7: h4, h9, ...``: every group once, the machines named except where the default is
    kept."""
    parts = []
    for v, names in groups:
        text = group_phrase(v, len(names))
        if v.state != A.KEEP_DEFAULT:
            text += f": {names_text(names)}"
        parts.append(text)
    return f"{n} host{'s' if n != 1 else ''}, {target}: " + "; ".join(parts) + "."
