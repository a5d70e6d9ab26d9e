# SPDX-License-Identifier: GPL-3.0-or-later
"""What the installed gpg and age can do, read from the programs themselves."""
from __future__ import annotations

import re
import shutil
import subprocess
from typing import Mapping

#: gpg --cipher-algo name -> the core's canonical name of the same cipher in CFB mode
#: (OpenPGP encrypts with CFB over the cipher's block size; see RFC 4880, section 13.9).
GPG_TO_CFB = {
    "AES": "aes-128-cfb", "AES192": "aes-192-cfb", "AES256": "aes-256-cfb",
    "TWOFISH": "twofish-256-cfb",
    "CAMELLIA128": "camellia-128-cfb", "CAMELLIA192": "camellia-192-cfb",
    "CAMELLIA256": "camellia-256-cfb",
    "CAST5": "cast5-cfb", "BLOWFISH": "blowfish-cfb", "3DES": "3des-cfb", "IDEA": "idea-cfb",
}


#: gpg's ciphers with 64-bit blocks. GnuPG 2.4 encrypts with them only when given
#: ``ALLOW_OLD_CIPHERS`` (an option GnuPG 2.2 does not know and does not need).
OLD_CIPHERS = frozenset({"IDEA", "3DES", "CAST5", "BLOWFISH"})
ALLOW_OLD_CIPHERS = "--allow-old-cipher-algos"


class ProgramMissing(Exception):
    """A program the scenario needs is not installed."""


def find(program: str, env: Mapping[str, str]) -> str:
    """Absolute path of ``program`` on the environment's PATH, or ``ProgramMissing``."""
    path = shutil.which(program, path=env.get("PATH"))
    if path is None:
        raise ProgramMissing(f"{program} is not installed (Debian: apt-get install "
                             f"{'gnupg' if program == 'gpg' else program})")
    return path


def parse_gpg_ciphers(version_text: str) -> list[str]:
    """The symmetric algorithms of ``gpg --version`` output ("Cipher: IDEA, 3DES, ...", which
    may continue on indented lines), in gpg's order."""
    m = re.search(r"^Cipher:\s*(.*?)(?=^\S|\Z)", version_text, re.M | re.S)
    if not m:
        return []
    return [c.strip() for c in m.group(1).replace("\n", " ").split(",") if c.strip()]


def gpg_info(env: Mapping[str, str]) -> tuple[str, str, list[str]]:
    """(path, version line, supported cipher algorithms) of the installed gpg."""
    gpg = find("gpg", env)
    out = subprocess.run([gpg, "--version"], env=dict(env), capture_output=True, text=True,
                         timeout=30, check=False).stdout
    first = out.splitlines()[0] if out else "gpg"
    return gpg, first, parse_gpg_ciphers(out)


def gpg_knows(gpg: str, option: str, env: Mapping[str, str]) -> bool:
    """True if this gpg lists ``option`` (e.g. ``--allow-old-cipher-algos``) among its options
    (``gpg --dump-options``, one option a line)."""
    out = subprocess.run([gpg, "--dump-options"], env=dict(env), capture_output=True,
                         text=True, timeout=30, check=False).stdout
    return option in out.split()


def age_info(env: Mapping[str, str]) -> tuple[str, str] | None:
    """(path, version) of age and age-keygen's presence, or None when age is not installed."""
    age = shutil.which("age", path=env.get("PATH"))
    if age is None or shutil.which("age-keygen", path=env.get("PATH")) is None:
        return None
    out = subprocess.run([age, "--version"], env=dict(env), capture_output=True, text=True,
                         timeout=30, check=False)
    return age, (out.stdout or out.stderr).strip()
