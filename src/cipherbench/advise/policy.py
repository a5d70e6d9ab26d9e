# SPDX-License-Identifier: GPL-3.0-or-later
"""Security policies over the catalog grades.

- ``modern`` (default): recommended grades only, and for transport (SSH, TLS) only AEADs.
  gpg and LUKS fix the mode of their format (OpenPGP's CFB with an MDC, dm-crypt's XTS);
  there the catalog's grade of that mode is "acceptable" (sound when the format composes it
  right, which these formats do), so modern allows 128-bit-block ciphers in the format's
  own mode (and, for LUKS, only XTS or the wide-block Adiantum).
- ``compat``: recommended and acceptable grades (CBC/CTR with a MAC, Camellia, ESSIV).
- ``legacy``: everything, each legacy or broken choice marked with its reason and reference.

Legacy and broken choices are never allowed outside ``legacy``, whatever their speed.
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherbench.advise.candidates import Candidate

POLICIES = ("modern", "compat", "legacy")
DEFAULT = "modern"

_SOUND = ("recommended", "acceptable")


@dataclass(frozen=True)
class Verdict:
    """Whether a policy allows a candidate, and why not."""

    allowed: bool
    reason: str = ""


def judge(policy: str, cand: Candidate, transport: bool) -> Verdict:
    """The policy's verdict on one candidate for a transport or at-rest target."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    if not cand.available:
        return Verdict(False, cand.note or "not offered by the installed tool")
    level = cand.grade.level
    if policy == "legacy":
        return Verdict(True)
    if level not in _SOUND:
        return Verdict(False, f"{level}: {cand.grade.reason} ({cand.grade.reference})"
                       if cand.grade.reference else f"{level}: {cand.grade.reason}")
    if policy == "compat":
        return Verdict(True)
    # modern
    if transport:
        if not cand.aead:
            return Verdict(False, "modern allows only AEAD ciphers for transport "
                                  "(use --policy compat for cipher + MAC)")
        if level != "recommended":
            return Verdict(False, f"{level}, not recommended: {cand.grade.reason}")
        return Verdict(True)
    if cand.family == "luks" and not (cand.names.get("xts") or cand.names.get("wide_block")):
        return Verdict(False, "modern allows XTS or Adiantum only for disks (use --policy "
                              "compat for CBC-ESSIV)")
    if level == "recommended":
        return Verdict(True)
    if cand.family in ("gpg", "luks"):
        return Verdict(True)   # the format's own mode; 64-bit blocks are legacy, refused above
    return Verdict(False, f"{level}, not recommended: {cand.grade.reason}")


def describe(policy: str, transport: bool) -> str:
    """One line saying what the policy allows for this kind of target."""
    if policy == "legacy":
        return "legacy: everything is allowed; legacy and broken choices are marked"
    if policy == "compat":
        return "compat: recommended and acceptable grades (cipher + MAC allowed)"
    return ("modern: recommended AEADs only" if transport else
            "modern: recommended grades, and 128-bit-block ciphers in the format's own mode")
