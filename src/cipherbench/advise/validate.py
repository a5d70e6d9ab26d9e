# SPDX-License-Identifier: GPL-3.0-or-later
"""Check config lines against the real tools, so no line a tool rejects is ever printed.

Checks by kind:

- ``openssl-ciphers``: ``openssl ciphers -s -tls1_2 STRING`` must succeed and list every name;
- ``openssl-suites``: ``openssl ciphers -s -tls1_3 -ciphersuites STRING`` must succeed and list
  every suite;
- ``gnutls-priority``: ``gnutls-cli --priority STRING -l`` must succeed (and the suites it
  lists are compared with the intended ones);
- ``ssh`` / ``ssh-config`` / ``sshd``: ``ssh -G -F /dev/null -o Ciphers=... -o MACs=...
  localhost``, ``ssh -G -F FILE`` with the client block as the config file, and ``sshd -t``
  with a throw-away host key;
- ``gpg-conf`` / ``gpg-algo``: ``gpg --gpgconf-test`` in a temporary home with the line in its
  gpg.conf, or with ``--cipher-algo`` (no agent is started);
- ``age``: a tiny encryption and decryption with a throw-away key;
- ``cryptsetup``: the spec's syntax, and the options in ``cryptsetup --help`` when installed
  (otherwise "not checked");
- ``caddy``: the ``tls`` block in a throw-away Caddyfile, ``caddy adapt --validate`` (which
  refuses a suite name Caddy does not accept);
- ``traefik``: never run ("not checked": Traefik has no command that checks a configuration
  without serving it);
- ``literal``: fixed syntax of a tool that is not installed here ("not checked").

A tool that is not installed gives "not checked", never "ok".
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Mapping

from cipherbench.advise.configs.base import ConfigLine
from cipherbench.tempdirs import temporary_dir

TIMEOUT = 20


class Validator:
    """Runs the checks, caching each distinct command."""

    def __init__(self, env: Mapping[str, str] | None = None):
        self.env = dict(env if env is not None else os.environ)
        self._cache: dict[tuple, tuple[int, str]] = {}

    # -- helpers --------------------------------------------------------------------------------
    def which(self, prog: str) -> str | None:
        """Path of a program on PATH (also the sbin directories for sshd)."""
        path = self.env.get("PATH", "") + os.pathsep + "/usr/sbin:/sbin"
        return shutil.which(prog, path=path)

    def _run(self, argv: list[str], stdin: bytes | None = None, env: dict | None = None,
             ) -> tuple[int, str]:
        key = (tuple(argv), stdin, tuple(sorted((env or {}).items())))
        if key not in self._cache:
            try:
                p = subprocess.run(argv, input=stdin, capture_output=True, timeout=TIMEOUT,
                                   env={**self.env, **(env or {})})
                text = (p.stdout + p.stderr).decode(errors="replace")
                self._cache[key] = (p.returncode, text)
            except (OSError, subprocess.TimeoutExpired) as e:
                self._cache[key] = (-1, str(e))
        return self._cache[key]

    # -- what the installed tools offer (used by the config modules) ---------------------------
    def openssl_filter(self, names: list[str], tls13: bool) -> tuple[list[str], list[str]]:
        """Split names into (offered by the installed openssl, not offered). Without openssl,
        everything is kept (and the lines are marked not checked)."""
        if not names or not self.which("openssl"):
            return list(names), []
        listed = self._openssl_list(":".join(names), tls13)
        if listed is None:
            listed = set()
            for n in names:  # one bad name fails the whole list: ask one by one
                got = self._openssl_list(n, tls13)
                listed |= got or set()
        ok = [n for n in names if n in listed]
        return ok, [n for n in names if n not in listed]

    def _openssl_list(self, string: str, tls13: bool) -> set[str] | None:
        argv = ["openssl", "ciphers", "-s"]
        argv += ["-tls1_3", "-ciphersuites", string] if tls13 else ["-tls1_2", string]
        rc, out = self._run(argv)
        if rc != 0:
            return None
        return set(out.strip().split(":")) if out.strip() else set()

    def caddy_filter(self, names: list[str]) -> tuple[list[str], list[str]]:
        """Split TLS 1.2 suite names into (accepted by the installed Caddy, not accepted).
        Without Caddy, everything is kept (and the lines are marked not checked)."""
        if not names or not self.which("caddy"):
            return list(names), []
        if self._caddy_adapt("tls1.2 tls1.3", " ".join(names))[0] == 0:
            return list(names), []
        ok = [n for n in names if self._caddy_adapt("tls1.2 tls1.3", n)[0] == 0]
        return ok, [n for n in names if n not in ok]

    def _caddy_adapt(self, protocols: str, ciphers: str) -> tuple[int, str]:
        key = ("caddy", protocols, ciphers)
        if key not in self._cache:
            block = f"\t\tprotocols {protocols}\n" + (f"\t\tciphers {ciphers}\n" if ciphers else "")
            with temporary_dir("cb-advise-", self.env) as d:
                path = os.path.join(d, "Caddyfile")
                with open(path, "w") as f:
                    f.write("localhost:8443 {\n\ttls internal {\n" + block + "\t}\n}\n")
                # its storage and config in the throw-away directory, not the user's
                home = {"HOME": d, "XDG_DATA_HOME": d, "XDG_CONFIG_HOME": d}
                self._cache[key] = self._run(["caddy", "adapt", "--config", path,
                                              "--adapter", "caddyfile", "--validate"], env=home)
        return self._cache[key]

    # -- the checks ---------------------------------------------------------------------------
    def check(self, line: ConfigLine) -> ConfigLine:
        """Run the line's check and set its status and detail."""
        if line.check is None:
            line.status = "comment"
            return line
        kind, payload = line.check
        status, detail = getattr(self, "_" + kind.replace("-", "_"))(payload)
        line.status, line.detail = status, detail
        return line

    def _caddy(self, payload) -> tuple[str, str]:
        protocols, ciphers = payload
        if not self.which("caddy"):
            return "not checked", "caddy is not installed"
        rc, out = self._caddy_adapt(protocols, ciphers)
        if rc != 0:
            return "rejected", "caddy: " + _last_line(out)
        return "ok", "caddy adapt --validate (the block in a Caddyfile)"

    def _traefik(self, what: str) -> tuple[str, str]:
        return "not checked", (f"{what}: Traefik has no command that checks a configuration "
                               "without serving it; the suite names are Go's crypto/tls names")

    def _literal(self, what: str) -> tuple[str, str]:
        return "not checked", f"{what}: fixed syntax, the program is not run here"

    def _openssl_ciphers(self, string: str) -> tuple[str, str]:
        if not self.which("openssl"):
            return "not checked", "openssl is not installed"
        got = self._openssl_list(string, tls13=False)
        if got is None:
            return "rejected", "openssl ciphers rejects it"
        missing = [n for n in string.split(":") if n not in got]
        if missing:
            return "rejected", f"openssl ciphers does not offer {', '.join(missing)}"
        return "ok", "openssl ciphers -s -tls1_2"

    def _openssl_suites(self, string: str) -> tuple[str, str]:
        if not self.which("openssl"):
            return "not checked", "openssl is not installed"
        got = self._openssl_list(string, tls13=True)
        if got is None:
            return "rejected", "openssl ciphers -ciphersuites rejects it"
        missing = [n for n in string.split(":") if n not in got]
        if missing:
            return "rejected", f"openssl does not offer {', '.join(missing)}"
        return "ok", "openssl ciphers -s -tls1_3 -ciphersuites"

    def gnutls_suites(self, priority: str) -> set[str] | None:
        """Suites ``gnutls-cli --priority P -l`` lists (None if it rejects the string)."""
        rc, out = self._run(["gnutls-cli", "--priority", priority, "-l"])
        if rc != 0:
            return None
        return {ln.split()[0] for ln in out.splitlines() if ln.startswith("TLS_")}

    def _gnutls_priority(self, payload) -> tuple[str, str]:
        priority, expected = payload
        if not self.which("gnutls-cli"):
            return "not checked", "gnutls-cli is not installed"
        got = self.gnutls_suites(priority)
        if got is None:
            rc, out = self._run(["gnutls-cli", "--priority", priority, "-l"])
            return "rejected", "gnutls-cli: " + _last_line(out)
        if not got:
            return "rejected", "gnutls-cli accepts it but enables no suite"
        missing = [s for s in expected if s not in got]
        detail = "gnutls-cli --priority ... -l"
        if missing:
            detail += f" (this GnuTLS leaves out {', '.join(missing)})"
        return "ok", detail

    def _ssh(self, payload) -> tuple[str, str]:
        ciphers, macs = payload
        if not self.which("ssh"):
            return "not checked", "ssh is not installed"
        argv = ["ssh", "-G", "-F", "/dev/null", "-o", f"Ciphers={ciphers}"]
        if macs:
            argv += ["-o", f"MACs={macs}"]
        rc, out = self._run(argv + ["localhost"])
        return ("ok", "ssh -G") if rc == 0 else ("rejected", "ssh: " + _last_line(out))

    def _ssh_config(self, payload) -> tuple[str, str]:
        text, host = payload
        if not self.which("ssh"):
            return "not checked", "ssh is not installed"
        with temporary_dir("cb-advise-", self.env) as d:
            cfg = os.path.join(d, "config")
            with open(cfg, "w") as f:
                f.write(text)
            p = subprocess.run(["ssh", "-G", "-F", cfg, host], capture_output=True,
                               timeout=TIMEOUT, env=self.env)
            out = (p.stdout + p.stderr).decode(errors="replace")
        if p.returncode != 0:
            return "rejected", "ssh: " + _last_line(out)
        return "ok", "ssh -G -F (the block as a config file)"

    def _sshd(self, payload) -> tuple[str, str]:
        ciphers, macs = payload
        sshd, keygen = self.which("sshd"), self.which("ssh-keygen")
        if not sshd or not keygen:
            return "not checked", "sshd is not installed"
        with temporary_dir("cb-advise-", self.env) as d:
            key = os.path.join(d, "hostkey")
            rc, out = self._run([keygen, "-q", "-t", "ed25519", "-N", "", "-f", key])
            if rc != 0:
                return "not checked", "ssh-keygen failed: " + _last_line(out)
            argv = [sshd, "-t", "-f", "/dev/null", "-h", key, "-o", f"Ciphers={ciphers}"]
            if macs:
                argv += ["-o", f"MACs={macs}"]
            p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, env=self.env)
            text = (p.stdout + p.stderr).decode(errors="replace")
        return ("ok", "sshd -t") if p.returncode == 0 else ("rejected", "sshd: " + _last_line(text))

    def _gpg(self, args: list[str], conf: str = "") -> tuple[int, str]:
        with temporary_dir("cb-advise-gpg-", self.env) as home:
            os.chmod(home, 0o700)
            if conf:
                with open(os.path.join(home, "gpg.conf"), "w") as f:
                    f.write(conf + "\n")
            p = subprocess.run(["gpg", "--homedir", home, "--batch", *args, "--gpgconf-test"],
                               capture_output=True, timeout=TIMEOUT, env=self.env)
            return p.returncode, (p.stdout + p.stderr).decode(errors="replace")

    def _gpg_conf(self, line: str) -> tuple[str, str]:
        if not self.which("gpg"):
            return "not checked", "gpg is not installed"
        rc, out = self._gpg([], conf=line)
        return ("ok", "gpg --gpgconf-test") if rc == 0 else ("rejected", "gpg: " + _last_line(out))

    def _gpg_algo(self, algo: str) -> tuple[str, str]:
        if not self.which("gpg"):
            return "not checked", "gpg is not installed"
        rc, out = self._gpg(["--cipher-algo", algo])
        return (("ok", "gpg --cipher-algo ... --gpgconf-test") if rc == 0
                else ("rejected", "gpg: " + _last_line(out)))

    def _age(self, what: str) -> tuple[str, str]:
        age, keygen = self.which("age"), self.which("age-keygen")
        if not age or not keygen:
            return "not checked", "age is not installed"
        with temporary_dir("cb-advise-age-", self.env) as d:
            key = os.path.join(d, "key.txt")
            p = subprocess.run([keygen, "-o", key], capture_output=True, timeout=TIMEOUT)
            if p.returncode != 0:
                return "rejected", "age-keygen failed"
            if what == "keygen":
                return "ok", "age-keygen -o"
            pub = subprocess.run([keygen, "-y", key], capture_output=True, timeout=TIMEOUT,
                                 text=True).stdout.strip()
            plain, enc, back = (os.path.join(d, n) for n in ("p", "p.age", "p.out"))
            with open(plain, "wb") as f:
                f.write(b"cipherbench\n")
            p = subprocess.run([age, "-r", pub, "-o", enc, plain], capture_output=True,
                               timeout=TIMEOUT)
            if p.returncode != 0:
                return "rejected", "age: " + _last_line(p.stderr.decode(errors="replace"))
            p = subprocess.run([age, "-d", "-i", key, "-o", back, enc], capture_output=True,
                               timeout=TIMEOUT)
            if p.returncode != 0 or open(back, "rb").read() != b"cipherbench\n":
                return "rejected", "age -d did not give the data back"
        return "ok", "age -r / age -d round trip"

    def _cryptsetup(self, payload) -> tuple[str, str]:
        spec, bits = payload
        if not re.fullmatch(r"[a-z0-9]+(,[a-z0-9]+)?-[a-z0-9]+(-[a-z0-9]+)?(:[a-z0-9]+)?",
                            spec) or \
                bits % 8 or not 128 <= bits <= 512:
            return "rejected", f"not a cryptsetup cipher spec and key size: {spec} {bits}"
        if not self.which("cryptsetup"):
            return "not checked", "cryptsetup is not installed (spec syntax checked only)"
        rc, out = self._run(["cryptsetup", "--help"])
        if rc != 0 or any(w not in out for w in ("--cipher", "--key-size", "--sector-size",
                                                  "luksFormat")):
            return "rejected", "this cryptsetup lacks --cipher/--key-size/--sector-size/luksFormat"
        return "ok", "cryptsetup --help (options), spec syntax"


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else "rejected"


def validate(lines: list[ConfigLine], validator: Validator) -> list[ConfigLine]:
    """Check every line; returns them with status and detail set."""
    return [validator.check(ln) for ln in lines]


def printable(lines: list[ConfigLine]) -> list[str]:
    """The text to print: rejected lines replaced by a comment naming the tool's objection."""
    out = []
    for ln in lines:
        if ln.status == "rejected":
            out.append(f"# (left out: {ln.detail})")
        else:
            out.append(ln.text)
    return out
