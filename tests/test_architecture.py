"""The shape of the code, read from the source (nothing is imported): no import cycle among the
modules of ``world/`` and ``game/``; ``world/`` never names the engine; no module swaps its class.
A module's length is a prompt, not a rule (STYLE rule 9): the suite's summary lists the modules
of ``world/`` and ``game/`` over `MAX_LINES` (``tests/conftest.py``), to ask whether each holds
two concepts.

Imports are read with `ast`: every ``import`` and ``from … import`` anywhere in a module (inside
functions too: a deferred import hides a cycle, it does not remove it), with relative imports
resolved, and ``importlib.import_module("literal")`` calls. Imports under ``if TYPE_CHECKING:``
count as well (STYLE rule 13): a name used in an annotation lives at or below the code that uses
it, so the mod-facing names sit low and the machinery above them.

Importing ``a.b.c`` also runs the packages ``a`` and ``a.b``; those count as edges, except a
module's own enclosing packages (they are already being imported when the module runs).
``from a import name`` where ``a`` is the module's own package does count: it reads a name from
the package's ``__init__``, which is the classic half-initialised-module loop.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("world", "game")
ENGINE = ("ursina", "panda3d", "direct")
MAX_LINES = 450  # past this, the summary asks whether a module holds two concepts

# The layers of world/, lowest first (docs/architecture.md has the same table, with what each
# holds): a module may import its own layer's modules and any lower layer's, never a higher
# one's. A layer is a sub-package or a top-level module; `world` itself (its __init__, the
# contract outside code calls) is the top.
LAYERS: tuple[str, ...] = (
    "world.geometry",
    "world.validate",
    "world.tiles",
    "world.shipped",
    "world.items",
    "world.blocks",
    "world.voxels",
    "world.ray",
    "world.physics",
    "world.entities",
    "world.mods",
    "world.light",
    "world.mesh",
    "world.gen",
    "world.actions",
    "world.ticks",
    "world.rules",
    "world.save",
    "world.stream",
    "world.base",
    "world",
)


@dataclass(frozen=True)
class Module:
    name: str  # dotted, e.g. "world.ray._walk"; a package is named by its folder
    path: Path
    is_package: bool

    @property
    def package(self) -> str:
        """The package relative imports start from."""
        return self.name if self.is_package else self.name.rpartition(".")[0]

    def ancestors(self) -> set[str]:
        parts = self.name.split(".")
        return {".".join(parts[:i]) for i in range(1, len(parts))}


def find_modules(
    root: Path | None = None, packages: tuple[str, ...] = PACKAGES
) -> dict[str, Module]:
    root = ROOT if root is None else root
    modules: dict[str, Module] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_package else parts)
            modules[name] = Module(name, path, is_package)
    return modules


@dataclass(frozen=True)
class Import:
    """One import statement: ``import target`` (``names`` empty) or ``from target import names``."""

    target: str  # absolute, dotted
    line: int
    names: tuple[str, ...] = ()


def _imported_module_name(node: ast.AST) -> str | None:
    """``"x"`` for a call ``import_module("x")`` (or ``importlib.import_module("x")``)."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    first = node.args[0]
    if called == "import_module" and isinstance(first, ast.Constant):
        return first.value if isinstance(first.value, str) else None
    return None


def imports_of(module: Module) -> list[Import]:
    """The module's imports: statements anywhere (inside functions and under ``if TYPE_CHECKING:``
    too), and ``import_module("x")`` calls."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), filename=str(module.path))
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                target = ".".join([*parts, node.module] if node.module else parts)
            else:
                target = node.module or ""
            found.append(Import(target, node.lineno, tuple(a.name for a in node.names)))
        elif (name := _imported_module_name(node)) is not None:
            found.append(Import(name, getattr(node, "lineno", 0)))
    return found


def import_graph(modules: dict[str, Module]) -> dict[str, dict[str, int]]:
    """For each module, the known modules it imports, each with the line of its first import."""
    return {name: _edges(module, modules) for name, module in modules.items()}


def _edges(module: Module, modules: dict[str, Module]) -> dict[str, int]:
    own = module.ancestors()
    targets: list[tuple[str, int]] = []
    for imp in imports_of(module):
        parts = imp.target.split(".")
        enclosing = [".".join(parts[:i]) for i in range(1, len(parts))]
        targets += [(package, imp.line) for package in enclosing if package not in own]
        submodules = [f"{imp.target}.{name}" for name in imp.names]
        targets += [(name, imp.line) for name in submodules]
        reads_a_name = not imp.names or any(name not in modules for name in submodules)
        if reads_a_name or imp.target not in own:
            targets.append((imp.target, imp.line))
    edges: dict[str, int] = {}
    for target, line in targets:
        if target != module.name and target in modules:
            edges.setdefault(target, line)
    return edges


def find_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Each cycle as a path ``[a, b, …, a]``, one per strongly connected component (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_path(graph, set(component)) for component in components]


def _cycle_path(graph: dict[str, dict[str, int]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth-first)."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w not in component:
                    continue
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # a component of 2+ always has one


def describe(cycle: list[str], graph: dict[str, dict[str, int]]) -> str:
    return (
        " -> ".join(f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(cycle))
        + f" -> {cycle[-1]}"
    )


# -- the rules --------------------------------------------------------------------------------


def test_no_module_of_world_or_game_is_in_an_import_cycle() -> None:
    graph = import_graph(find_modules())
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(describe(c, graph) for c in cycles)


def layer_of(name: str) -> str:
    """The layer (`LAYERS`) a module of world/ belongs to: its longest listed prefix."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in LAYERS:
            return prefix
    raise AssertionError(f"{name} is in no layer of LAYERS: add it to the table")


def test_every_import_in_world_points_down_the_layer_table() -> None:
    rank = {layer: n for n, layer in enumerate(LAYERS)}
    modules = find_modules(packages=("world",))
    graph = import_graph(modules)
    upward = [
        f"{name} ({layer_of(name)}) imports {target} ({layer_of(target)}), line {line}"
        for name, edges in graph.items()
        for target, line in edges.items()
        if rank[layer_of(target)] > rank[layer_of(name)]
    ]
    assert not upward, "imports against the layer table:\n" + "\n".join(upward)


def test_every_package_of_world_opens_with_its_contract() -> None:
    for module in find_modules(packages=("world",)).values():
        if module.is_package:
            doc = ast.get_docstring(ast.parse(module.path.read_text(encoding="utf-8"))) or ""
            assert len(doc) > 200, f"{module.path} has no contract docstring"


# The contract's public addresses (../shared/DESIGN.md) name what outside code imports from them.
CONTRACT_ADDRESSES = ("world.hooks", "world.storage")


def test_no_module_of_world_re_exports_a_name_it_imports() -> None:
    # A package's __init__ (its contract) and the contract's addresses gather names; any other
    # module lists in __all__ only what it defines, so each name has one address inside.
    offenders = []
    for module in find_modules(packages=("world",)).values():
        if module.is_package or module.name in CONTRACT_ADDRESSES:
            continue
        tree = ast.parse(module.path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name
            for node in tree.body
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        listed = [
            element.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
            for element in node.value.elts
            if isinstance(element, ast.Constant)
        ]
        offenders += [f"{module.name} re-exports {name}" for name in listed if name in imported]
    assert not offenders, "\n".join(offenders)


def test_world_never_imports_the_engine() -> None:
    # tests/world/test_blocks.py checks the same at run time, in a fresh interpreter
    offenders = [
        f"{module.path.relative_to(ROOT)}:{imp.line} imports {imp.target}"
        for module in find_modules(packages=("world",)).values()
        for imp in imports_of(module)
        if imp.target.split(".")[0] in ENGINE
    ]
    assert not offenders, "\n".join(offenders)


def class_swaps(modules: dict[str, Module], root: Path) -> list[str]:
    """``path:line: statement`` for each ``….__class__ = …`` or ``sys.modules[__name__] = …``."""
    offenders = []
    for module in modules.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                swaps_class = isinstance(target, ast.Attribute) and target.attr == "__class__"
                replaces_module = (
                    isinstance(target, ast.Subscript)
                    and ast.unparse(target.value) == "sys.modules"
                    and ast.unparse(target.slice) == "__name__"
                )
                if swaps_class or replaces_module:
                    where = module.path.relative_to(root)
                    offenders.append(f"{where}:{target.lineno}: {ast.unparse(node)}")
    return offenders


def test_no_module_swaps_its_class_or_replaces_itself() -> None:
    offenders = class_swaps(find_modules(), ROOT)
    assert not offenders, "\n".join(offenders)


# -- the checker itself, on small made-up trees -------------------------------------------------


def write_tree(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def cycles_in(root: Path) -> list[str]:
    graph = import_graph(find_modules(root, ("pkg",)))
    return [" -> ".join(cycle) for cycle in find_cycles(graph)]


def test_the_checker_finds_a_cycle_through_a_relative_import_inside_a_function(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import f\n",
            "pkg/b.py": "def f():\n    from .c import g\n",
            "pkg/c.py": "from . import a\n",
        },
    )
    assert cycles_in(tmp_path) == ["pkg.a -> pkg.b -> pkg.c -> pkg.a"]


def test_the_checker_finds_a_cycle_through_import_module(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "import importlib\nimportlib.import_module('pkg.b')\n",
            "pkg/b.py": "import pkg.a\n",
        },
    )
    assert cycles_in(tmp_path) == ["pkg.a -> pkg.b -> pkg.a"]


def test_the_checker_counts_a_cycle_closed_by_a_type_checking_import(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from pkg.b import B\nelse:\n    import json\n",
            "pkg/b.py": "from pkg.a import A\n",
        },
    )
    assert cycles_in(tmp_path) == ["pkg.a -> pkg.b -> pkg.a"]


def test_the_checker_ignores_package_reexports(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import A\nfrom pkg.sub import B\n",
            "pkg/a.py": "import json\n",
            "pkg/b.py": "from pkg.a import A\nfrom pkg.sub.c import C\n",
            "pkg/sub/__init__.py": "from .c import C as B\n",
            "pkg/sub/c.py": "from .. import a\nfrom . import d\n",
            "pkg/sub/d.py": "",
        },
    )
    assert cycles_in(tmp_path) == []


def test_the_checker_counts_a_name_read_from_the_own_package(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import A\n",
            "pkg/a.py": "from pkg import helper\nA = 1\n",
        },
    )
    assert cycles_in(tmp_path) == ["pkg -> pkg.a -> pkg"]


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("import sys\nsys.modules[__name__].__class__ = type\n", True),
        ("import sys\nsys.modules[__name__] = object()\n", True),
        ("import sys\nsys.modules['blockpick_mod_x'] = object()\n", False),
    ],
)
def test_the_checker_finds_a_module_class_swap(tmp_path: Path, source: str, found: bool) -> None:
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": source})
    offenders = class_swaps(find_modules(tmp_path, ("pkg",)), tmp_path)
    assert offenders == ([f"pkg/m.py:2: {source.splitlines()[1]}"] if found else [])
