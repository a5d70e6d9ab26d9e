"""Decide what evidence is missing for the chosen targets and measure it, quickly."""
from __future__ import annotations

from cipherbench.advise import evidence as E
from cipherbench.advise.evidence import Evidence
from cipherbench.advise.measure import Measurer
from cipherbench.advise.targets import Target
from cipherbench.store import Store

_KEY_AEADS = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305")


def missing(ev: Evidence, targets: list[Target], lib: str, host: str | None,
            assume_no_aes: bool) -> dict:
    """What to measure: ``{"ssh": bool, "gpg": bool, "primitive": {lib: [algos]},
    "no_hw": bool, "tls": bool, "tls_of": [the TLS libraries of targets built on one]}``."""
    want: dict = {"ssh": False, "gpg": False, "primitive": {}, "no_hw": False, "tls": False,
                  "tls_of": []}
    fams = {t.family for t in targets}

    def need(l: str, algos) -> None:
        have = want["primitive"].setdefault(l, [])
        for a in algos:
            if a not in have:
                have.append(a)

    if "ssh" in fams and ev.ssh_run is None:
        want["ssh"] = True
    # A program built on one library (Caddy and Traefik: Go) is rated by that library's own
    # TLS record layer (the Go core's tls); its primitives stand in when that cannot be had.
    for t in targets:
        if t.lib and t.family == "tls" and not any(k[0] == t.lib for k in ev.tls):
            if t.lib not in want["tls_of"]:
                want["tls_of"].append(t.lib)
        elif t.lib and any((t.lib, a, "encrypt") not in ev.primitive for a in _KEY_AEADS):
            need(t.lib, E.TLS_ALGOS)
    if any(t.family == "tls" and not t.lib for t in targets) \
            and not any(k[0] == lib for k in ev.tls):
        want["tls"] = True
        if assume_no_aes and not ev.no_aes_runs:
            want["no_hw"] = True
    if "luks" in fams and any(("openssl", a, "encrypt") not in ev.primitive
                              for a in ("aes-128-xts", "aes-256-xts")):
        need("openssl", [a for a in E.LUKS_ALGOS if "twofish" not in a and "serpent" not in a])
        need("libgcrypt", ("twofish-256-cbc", "serpent-256-cbc"))
    if "luks" in fams:     # the kernel's generic drivers and Adiantum (luks_kernel.py)
        from cipherbench.advise.luks_kernel import NEEDS
        for l, algos in NEEDS.items():
            if any((l, a, "encrypt") not in ev.primitive for a in algos):
                need(l, algos)
    if "gpg" in fams and ev.gpg_run is None:
        want["gpg"] = True
    return want


def gather(store: Store, targets: list[Target], *, lib: str, host: str | None,
           assume_no_aes: bool, measurer: Measurer | None, ssh_config: str | None = None,
           via: list[str] | None = None, machine: tuple[str, str, str] | None = None,
           kernel: bool = False) -> tuple[Evidence, list]:
    """Load the evidence (of ``machine`` when the store has its runs; ssh runs through the
    first of ``via`` they measured); with a measurer, measure what is missing and load again.
    Returns the evidence and the measurements made."""
    def load() -> Evidence:
        return Evidence.load(store, assume_no_aes=assume_no_aes, host=host, machine=machine,
                             via=via)

    ev = load()
    if measurer is None:
        return ev, []
    want = missing(ev, targets, lib, host, assume_no_aes)
    if want["tls"] and measurer.tls(lib).rc != 0:
        if any((lib, a, "encrypt") not in ev.primitive for a in _KEY_AEADS):
            want["primitive"].setdefault(lib, []).extend(E.TLS_ALGOS)
    for l in want["tls_of"]:
        if measurer.tls(l).rc != 0 and any((l, a, "encrypt") not in ev.primitive
                                           for a in _KEY_AEADS):
            want["primitive"].setdefault(l, []).extend(E.TLS_ALGOS)
    for l, algos in want["primitive"].items():
        measurer.primitive([l], list(algos))
    if want["no_hw"]:
        measurer.primitive([lib], list(_KEY_AEADS), no_hw=True)
    if want["ssh"]:
        from cipherbench.advise.engine import _ssh_query
        m = measurer.ssh(host, _ssh_query("cipher") or [], ssh_config=ssh_config, via=via)
        if m.rc not in (0,):
            # no real path: the primitives stand in
            measurer.primitive(["openssl"], list(E.SSH_ALGOS))
    if want["gpg"]:
        measurer.gpg()
    if kernel and any(t.family == "luks" for t in targets):
        measurer.luks()       # --kernel: the kernel's dm-crypt itself, each time asked
    if measurer.done:
        ev = load()
    return ev, measurer.done
