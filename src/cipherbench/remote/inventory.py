# SPDX-License-Identifier: GPL-3.0-or-later
"""The hosts of an Ansible inventory (``run --inventory FILE[:GROUP]``), read without Ansible.

Both forms Ansible reads from a file: INI (``[group]`` sections of host lines with
``key=value`` variables, ``[group:children]``, ``[group:vars]``, ranges such as
``web[01:03].example.com``) and YAML (``all:`` / ``GROUP:`` mappings with ``hosts:``,
``children:`` and ``vars:``). The YAML read is the block-mapping subset inventories are written
in (no PyYAML needed); anything else is refused with the line. A host's ``ansible_host``,
``ansible_user`` and ``ansible_port`` make its ssh destination; otherwise its inventory name
is the destination, as for Ansible.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from cipherbench.errors import UsageError

_RANGE = re.compile(r"\[([0-9]+|[a-z]):([0-9]+|[a-z])(?::([0-9]+))?\]")


@dataclass
class Inventory:
    """Groups (name -> hosts in file order, children) and each host's variables."""

    hosts: dict[str, dict[str, str]] = field(default_factory=dict)
    groups: dict[str, list[str]] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)

    def add_host(self, group: str, name: str, variables: dict[str, str]) -> None:
        self.hosts.setdefault(name, {}).update(variables)
        members = self.groups.setdefault(group, [])
        if name not in members:
            members.append(name)

    def members(self, group: str, seen: frozenset[str] = frozenset()) -> list[str]:
        """The hosts of ``group`` and of its children, each once, in file order."""
        if group == "all":
            return list(self.hosts)
        out = list(self.groups.get(group, []))
        for child in self.children.get(group, []):
            if child not in seen:
                out += [h for h in self.members(child, seen | {group}) if h not in out]
        return out

    def destination(self, name: str) -> str:
        """``[USER@]HOST`` (or ``ssh://[USER@]HOST:PORT``) for ssh."""
        v = self.hosts.get(name, {})
        host = v.get("ansible_host") or name
        user = v.get("ansible_user") or v.get("ansible_ssh_user")
        port = v.get("ansible_port") or v.get("ansible_ssh_port")
        at = f"{user}@" if user else ""
        return f"ssh://{at}{host}:{port}" if port else f"{at}{host}"


def expand_range(name: str) -> list[str]:
    """``web[01:03]`` -> ``web01, web02, web03`` (Ansible's numeric and letter ranges)."""
    m = _RANGE.search(name)
    if not m:
        return [name]
    lo, hi, step = m.group(1), m.group(2), int(m.group(3) or 1)
    head, tail = name[:m.start()], name[m.end():]
    if lo.isdigit() and hi.isdigit():
        width = len(lo) if lo.startswith("0") else 0
        items = [str(i).zfill(width) for i in range(int(lo), int(hi) + 1, step)]
    elif lo.isalpha() and hi.isalpha():
        items = [chr(c) for c in range(ord(lo), ord(hi) + 1, step)]
    else:
        raise UsageError(f"inventory: cannot read the range in {name!r}")
    return [x for i in items for x in expand_range(head + i + tail)]


def _ini_vars(words: list[str], where: str) -> dict[str, str]:
    out = {}
    for w in words:
        if "=" not in w:
            raise UsageError(f"{where}: expected key=value, found {w!r}")
        k, v = w.split("=", 1)
        out[k] = v.strip("'\"")
    return out


def parse_ini(text: str, source: str) -> Inventory:
    inv = Inventory()
    section, kind = "ungrouped", "hosts"
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        where = f"{source} line {n}"
        if line.startswith("[") and line.endswith("]"):
            section, _, kind = line[1:-1].partition(":")
            kind = kind or "hosts"
            if kind not in ("hosts", "children", "vars"):
                raise UsageError(f"{where}: unknown section kind {kind!r}")
            inv.groups.setdefault(section, [])
            continue
        if kind == "vars":
            continue    # group variables: not about which hosts
        words = line.split()
        if kind == "children":
            inv.children.setdefault(section, []).append(words[0])
            continue
        variables = _ini_vars(words[1:], where)
        for name in expand_range(words[0]):
            inv.add_host(section, name, variables)
    return inv


# -- YAML: the block-mapping subset of inventories -----------------------------------------------

def _scalar(text: str) -> str | None:
    text = text.strip()
    if text in ("", "~", "null", "Null", "NULL", "{}"):
        return None
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (outside quotes)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def parse_yaml_mapping(text: str, source: str) -> dict:
    """Nested block mappings (``key:`` / ``key: scalar``) as dicts; other YAML is refused."""
    root: dict = {}
    stack: list[tuple[int, dict]] = []
    last: tuple[int, dict, str] | None = None   # the indent, mapping and key of an empty value
    for n, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw).rstrip()
        if not line.strip() or line.strip() in ("---", "..."):
            continue
        where = f"{source} line {n}"
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if "\t" in line[:indent] or body.startswith(("- ", "&", "*", "!", "{", "[")) \
                or body == "-":
            raise UsageError(f"{where}: only nested mappings (key: value) are read in a YAML "
                             "inventory; write lists and anchors out as mappings")
        # 'key: value' splits at the first ': '; 'web[01:03]:' is a key alone
        key, colon, value = body.partition(": ")
        if not colon:
            key, colon, value = (body[:-1], ":", "") if body.endswith(":") else (body, "", "")
        if not colon:
            raise UsageError(f"{where}: expected 'key:' or 'key: value'")
        if last is not None and indent > last[0]:   # the children of the last empty key
            child: dict = {}
            last[1][last[2]] = child
            stack.append((indent, child))
        if not stack:
            stack.append((indent, root))
        while len(stack) > 1 and indent < stack[-1][0]:
            stack.pop()
        if indent != stack[-1][0]:
            raise UsageError(f"{where}: the indentation does not match a mapping above")
        mapping = stack[-1][1]
        k = _scalar(key) or ""
        v = _scalar(value)
        mapping[k] = v
        last = (indent, mapping, k) if v is None else None
    return root


def _walk_yaml(inv: Inventory, name: str, node: dict | None, source: str) -> None:
    node = node or {}
    if not isinstance(node, dict):
        raise UsageError(f"{source}: group {name!r} is not a mapping")
    inv.groups.setdefault(name, [])
    for host, variables in (node.get("hosts") or {}).items():
        flat = {k: str(v) for k, v in (variables or {}).items() if not isinstance(v, dict)}
        for h in expand_range(host):
            inv.add_host(name, h, flat)
    for child, sub in (node.get("children") or {}).items():
        inv.children.setdefault(name, []).append(child)
        _walk_yaml(inv, child, sub, source)


def parse_yaml(text: str, source: str) -> Inventory:
    inv = Inventory()
    for name, node in parse_yaml_mapping(text, source).items():
        _walk_yaml(inv, name, node, source)
    return inv


def load(spec: str) -> tuple[Inventory, str]:
    """``FILE[:GROUP]`` -> the inventory and the group (``all`` when none is given)."""
    path, group = spec, "all"
    if not Path(spec).is_file() and ":" in spec:
        path, group = spec.rsplit(":", 1)
    p = Path(path)
    try:
        text = p.read_text()
    except FileNotFoundError:
        raise UsageError(f"--inventory {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"--inventory {path}: cannot read it: {e}") from None
    first = next((ln.strip() for ln in text.splitlines()
                  if ln.strip() and not ln.strip().startswith(("#", ";"))), "")
    is_yaml = p.suffix in (".yml", ".yaml") or first == "---" or (
        first.endswith(":") and not first.startswith("["))
    inv = parse_yaml(text, path) if is_yaml else parse_ini(text, path)
    return inv, group


def hosts_of(spec: str) -> list[str]:
    """The ssh destinations of ``FILE[:GROUP]``; UsageError for an unknown or empty group."""
    inv, group = load(spec)
    if group != "all" and group not in inv.groups:
        known = ", ".join(sorted(g for g in inv.groups if g != "ungrouped")) or "none"
        raise UsageError(f"--inventory {spec}: no group {group!r} (groups: {known})")
    names = inv.members(group)
    if not names:
        raise UsageError(f"--inventory {spec}: group {group!r} has no hosts")
    return [inv.destination(n) for n in names]
