"""The package's shape: its modules (lines, first docstring line) and its import circles.

Run from a checkout: ``python -m tools.structure`` (``--tree`` or ``--cycles`` for one part;
``--root DIR`` for another tree). The import graph is static, read with ``ast``: every
``import`` and ``from ... import`` in a module counts, at module level, inside functions and
under ``if TYPE_CHECKING:`` alike — a lazy import inside a function is still a dependency of
that module, and a circle through one is still a circle.

Three kinds of circle are reported:

- module circles: strongly connected sets of modules (each reaches every other by imports);
- folder circles: strongly connected sets of the package's subfolders (``sudoku_cp.batch``,
  ``sudoku_cp.backends.sat`` …), where folder A imports folder B when a module directly inside
  A imports a module directly inside B (a package's ``__init__.py`` belongs to its own folder).
  The root folder's own modules are left out here: they are both the foot every folder stands
  on (``errors``, ``model``, ``puzzle``) and the top that uses every folder (the harness, the
  lazy API of ``sudoku_cp/__init__.py``), so the root always "circles" with everything;
- circles through the root's modules: the same graph with each of the root's modules a node of
  its own. Listed for a reviewer; with no module circle they are a layering to read, not a
  loop any import runs round.

An import of a parent package's name (``from .. import X``) is an edge to that package's
``__init__`` module, so re-exports in an ``__init__`` count as what they are: the folder
importing its parts.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE = "sudoku_cp"


@dataclass
class Module:
    """One ``.py`` file of the package, by dotted name."""

    name: str
    path: Path
    is_package: bool
    lines: int
    doc: str
    imports: set[str] = field(default_factory=set)

    @property
    def folder(self) -> str:
        """The package the module lives in (a package's ``__init__`` is its own folder)."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


def _first_doc_line(tree: ast.Module) -> str:
    doc = ast.get_docstring(tree)
    if not doc:
        return ""
    return doc.strip().splitlines()[0].strip()


def _resolve(module: Module, node: ast.ImportFrom) -> str:
    """The absolute dotted name a ``from X import ...`` refers to."""
    if not node.level:
        return node.module or ""
    # A package's own name is its __init__'s; a plain module's base is its folder.
    base = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def load(root: Path, package: str = PACKAGE) -> dict[str, Module]:
    """Every module under ``root/package`` with the package modules it imports."""
    modules: dict[str, Module] = {}
    trees: dict[str, ast.Module] = {}
    for path in sorted((root / package).rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join(parts)
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        trees[name] = tree
        lines = len(text.splitlines())
        modules[name] = Module(name, path, is_package, lines, _first_doc_line(tree))
    for name, tree in trees.items():
        module = modules[name]
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    # `from pkg import sub` names a submodule when one exists, else pkg's name.
                    targets.append(sub if sub in modules else base)
            for target in targets:
                # `import a.b.c` depends on the deepest part that is one of our modules.
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    module.imports.add(target)
    return modules


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected sets of two or more nodes, each sorted (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def module_cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Sets of modules that import each other, directly or round a longer loop."""
    return strongly_connected({name: set(m.imports) for name, m in modules.items()})


def _node_graph(modules: dict[str, Module], node: Any) -> dict[str, set[str]]:
    """Nodes (``node(module)``, None: left out) with an edge where a module imports another."""
    graph: dict[str, set[str]] = {}
    for module in modules.values():
        here = node(module)
        if here is None:
            continue
        graph.setdefault(here, set())
        for target in module.imports:
            there = node(modules[target])
            if there is not None and there != here and not _nested(here, there):
                graph[here].add(there)
    return graph


def _nested(a: str, b: str) -> bool:
    """Whether one folder lies inside the other: a room and its inner folders (the backtracker
    and its ``kernel/`` below the search, reading ``layout.py`` at the room's foot) are one
    room, so imports between them are the room's own layering, checked by the module graph."""
    return a.startswith(b + ".") or b.startswith(a + ".")


def folder_graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    """Subfolder A → subfolder B when a module of A imports a module of B (A ≠ B, neither inside
    the other; the root folder's own modules left out)."""
    return _node_graph(modules, lambda m: None if m.folder == PACKAGE else m.folder)


def root_graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    """The folder graph with each of the root folder's modules a node of its own."""
    return _node_graph(modules, lambda m: m.name if m.folder == PACKAGE else m.folder)


def edges_between(
    modules: dict[str, Module], graph_node: Any, a: str, b: str
) -> list[tuple[str, str]]:
    """The module imports that make node ``a`` import node ``b``."""
    return sorted(
        (m.name, t)
        for m in modules.values()
        if graph_node(m) == a
        for t in m.imports
        if graph_node(modules[t]) == b
    )


def folder_cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Sets of subfolders that import each other."""
    return strongly_connected(folder_graph(modules))


def root_cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Sets of subfolders and root modules that import each other."""
    return strongly_connected(root_graph(modules))


def tree_lines(modules: dict[str, Module], root: Path) -> list[str]:
    """One line a module: its path, line count and first docstring line."""
    rows = []
    for module in sorted(modules.values(), key=lambda m: m.path):
        rel = module.path.relative_to(root).as_posix()
        rows.append(f"{rel:<52} {module.lines:>5}  {module.doc}")
    return rows


def _circle_lines(
    modules: dict[str, Module], graph: dict[str, set[str]], node: Any, circle: list[str]
) -> list[str]:
    members = set(circle)
    rows = ["  " + " ↔ ".join(circle)]
    for here in circle:
        for there in sorted(graph[here] & members):
            edges = edges_between(modules, node, here, there)
            shown = ", ".join(f"{a} → {b}" for a, b in edges[:4])
            more = f" (+{len(edges) - 4} more)" if len(edges) > 4 else ""
            rows.append(f"    {here} → {there}: {shown}{more}")
    return rows


def cycle_lines(modules: dict[str, Module]) -> list[str]:
    """The module circles, folder circles and circles through the root's modules, each with
    the imports that close it."""
    rows = []
    circles = module_cycles(modules)
    rows.append(f"module circles: {len(circles)}")
    for circle in circles:
        members = set(circle)
        rows.append("  " + " ↔ ".join(circle))
        for name in circle:
            inside = sorted(modules[name].imports & members)
            rows.append(f"    {name} → {', '.join(inside)}")
    for title, graph, node in (
        (
            "folder circles",
            folder_graph(modules),
            lambda m: None if m.folder == PACKAGE else m.folder,
        ),
        (
            "circles through the root's modules",
            root_graph(modules),
            lambda m: m.name if m.folder == PACKAGE else m.folder,
        ),
    ):
        found = strongly_connected(graph)
        rows.append(f"{title}: {len(found)}")
        for circle in found:
            rows += _circle_lines(modules, graph, node, circle)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    part = parser.add_mutually_exclusive_group()
    part.add_argument("--tree", action="store_true", help="only the module tree")
    part.add_argument("--cycles", action="store_true", help="only the import circles")
    args = parser.parse_args(argv)
    if not (args.root / PACKAGE).is_dir():
        print(f"structure: no {PACKAGE}/ under {args.root}", file=sys.stderr)
        return 2
    modules = load(args.root)
    if not args.cycles:
        print("\n".join(tree_lines(modules, args.root)))
    if not args.tree:
        if not args.cycles:
            print()
        print("\n".join(cycle_lines(modules)))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
