# SPDX-License-Identifier: GPL-3.0-or-later
"""The package layout keeps its layers (docs/architecture.md, "The layers"): every module
imports, imports point one way (down the layers), and no module takes a standard library name.

The imports are read from the source (every ``import`` and ``from ... import``, at the top or
inside a function), so a lazy import breaks a layer as surely as one at the top."""
from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

import cipherbench

PACKAGE = Path(cipherbench.__file__).resolve().parent

#: Layers, lowest first: a module may import modules of its own layer or of a lower one.
#: Each entry is a module name or a package prefix (``cipherbench.cores.`` covers its modules).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("roots", ("cipherbench", "cipherbench.analysis.", "cipherbench.processes.",
               "cipherbench.errors", "cipherbench.units", "cipherbench.catalog",
               "cipherbench.presets", "cipherbench.run_warnings", "cipherbench.suggest",
               "cipherbench.interrupts", "cipherbench.tempdirs", "cipherbench.output")),
    ("cores, machine, store", ("cipherbench.cores.", "cipherbench.machine.",
                               "cipherbench.store.")),
    ("display and command kit", ("cipherbench.display.", "cipherbench.clikit.")),
    ("what measures", ("cipherbench.scenarios.", "cipherbench.remote.")),
    ("what reads runs and answers", ("cipherbench.advise.", "cipherbench.report.",
                                     "cipherbench.export.", "cipherbench.compare")),
    ("commands", ("cipherbench.cli.", "cipherbench.__main__", "cipherbench.scenarios.*.command")),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def matches(module: str, pattern: str) -> bool:
    if pattern.endswith("."):                   # a package: itself and everything in it
        return module == pattern[:-1] or module.startswith(pattern)
    if "*" in pattern:                          # cipherbench.scenarios.*.command
        head, tail = pattern.split("*")
        return module.startswith(head) and module.endswith(tail) and \
            "." not in module[len(head):-len(tail)]
    return module == pattern


def layer_of(module: str) -> int:
    """The highest layer naming the module (a scenario's command is a command, not a scenario)."""
    found = [i for i, (_, patterns) in enumerate(LAYERS)
             if any(matches(module, p) for p in patterns)]
    assert found, f"{module} belongs to no layer: add it to LAYERS and docs/architecture.md"
    return max(found)


def imports_of(module: str) -> set[str]:
    """The cipherbench modules ``module`` imports (a ``from P import name`` of a submodule
    counts as that submodule)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for a in node.names:
                sub = f"{source}.{a.name}"
                out.add(sub if sub in MODULES else source)
    return {m for m in out if m == "cipherbench" or m.startswith("cipherbench.")}


def test_the_layers_cover_every_module_and_the_package_has_its_parts():
    assert len(MODULES) > 100
    for module in MODULES:
        layer_of(module)
    for package in ("analysis", "processes", "cores", "machine", "clikit"):
        assert (PACKAGE / package / "__init__.py").is_file()


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "cipherbench.__main__"))
def test_every_module_imports(module):
    """(``__main__`` runs the command line when imported.)"""
    importlib.import_module(module)


def test_imports_point_down_the_layers():
    upward = []
    for module in MODULES:
        mine = layer_of(module)
        for imported in sorted(imports_of(module)):
            assert imported in MODULES, f"{module} imports {imported}, which does not exist"
            theirs = layer_of(imported)
            if theirs > mine:
                upward.append(f"{module} ({LAYERS[mine][0]}) imports {imported} "
                              f"({LAYERS[theirs][0]})")
    assert upward == []


def test_cli_is_imported_only_by_itself():
    for module in MODULES:
        if module.startswith("cipherbench.cli") or module == "cipherbench.__main__":
            continue
        assert not [m for m in imports_of(module) if matches(m, "cipherbench.cli.")], module


def test_the_scenarios_and_the_command_kit_never_import_cli():
    for module in MODULES:
        if module.startswith(("cipherbench.scenarios", "cipherbench.clikit")):
            assert not [m for m in imports_of(module) if matches(m, "cipherbench.cli.")], module


def test_the_command_kit_imports_neither_cli_nor_scenarios():
    for module in (m for m in MODULES if m.startswith("cipherbench.clikit")):
        bad = [m for m in imports_of(module)
               if matches(m, "cipherbench.cli.") or matches(m, "cipherbench.scenarios.")]
        assert bad == [], module


def test_the_shared_scenario_parts_import_no_scenario():
    """``Recording``, progress, rounds and the registry serve every scenario: none of them
    reaches into one scenario's package."""
    shared = [m for m in MODULES if m.count(".") == 2 and m.startswith("cipherbench.scenarios.")
              and MODULES[m].name != "__init__.py"] + ["cipherbench.scenarios"]
    assert "cipherbench.scenarios.recording" in shared
    packages = [m for m in MODULES if m.count(".") == 2 and m.startswith("cipherbench.scenarios.")
                and MODULES[m].name == "__init__.py"]
    assert len(packages) >= 4
    for module in shared:
        bad = [m for m in imports_of(module) if any(matches(m, p + ".") for p in packages)]
        assert bad == [], module


def test_no_module_is_named_like_a_standard_library_module():
    clash = [m for m in MODULES if m.rpartition(".")[2] in sys.stdlib_module_names]
    assert clash == []
