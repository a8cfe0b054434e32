"""The import graph of newscrawl/ has no cycle, the extractor imports nothing from the crawl side, and
the subpackages import one another only as LAYERS allows (README "How it is built", docs/layout.md).

Every import statement counts, also one inside a function: an import placed there to dodge a cycle
hides the cycle from Python at start-up but not from this test. The graph is read from the syntax
trees, so it does not depend on which modules a test happens to load.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "newscrawl"
LIBRARY = "newscrawl.extract"

# Which part of newscrawl (a subpackage, or a module at the top) may import which. The table itself
# has no cycle (a test checks), so dependencies point one way: extract at the bottom, the spider,
# commands, health report and demo at the top. A new subpackage gets a row before it can import.
LAYERS: dict[str, set[str]] = {
    "extract": set(),
    "settings": set(),
    "items": set(),
    "config": {"extract", "settings"},
    "run": {"settings"},
    "crawl": {"extract", "config", "run", "settings", "items"},
    "schedule": {"run", "settings"},
    "render": {"extract", "config", "run", "crawl", "settings", "items"},
    "store": {"extract", "config", "run", "crawl", "settings", "items"},
    "report": {"config", "run", "crawl", "store", "settings", "items"},
    "health": {"config", "run", "store", "report", "settings"},
    "demo": {"config", "run", "store", "settings"},
    "commands": {"config", "run", "crawl", "store", "report", "settings"},
    "spiders": {"extract", "config", "run", "crawl", "render", "store", "report", "settings", "items"},
}


def _module_name(path: Path, package: Path) -> str:
    return ".".join(path.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, modules: set[str]) -> set[str]:
    """The package modules one import statement loads (``from . import x`` loads the module x)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    if node.level:
        parts = module.split(".")
        base = parts if is_package else parts[:-1]
        base = base[:len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    found = set()
    for alias in node.names:
        if f"{source}.{alias.name}" in modules:
            found.add(f"{source}.{alias.name}")
        elif source in modules:
            found.add(source)
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, dict[str, int]]:
    """module -> {module it imports: line of the first such import}, for the package's own modules."""
    paths = {_module_name(path, package): path for path in sorted(package.rglob("*.py"))}
    modules = set(paths)
    graph: dict[str, dict[str, int]] = {}
    for module, path in paths.items():
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _imported(node, module, path.name == "__init__.py", modules):
                    if target != module and not module.startswith(target + "."):   # a package's own __init__
                        edges.setdefault(target, node.lineno)
        graph[module] = edges
    return graph


def find_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One cycle (as a closed path) per strongly connected group of modules (Tarjan's algorithm)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_closed_path(graph, sorted(group)) for group in groups]


def _closed_path(graph: dict[str, dict[str, int]], group: list[str]) -> list[str]:
    """A path through the group from its first module back to it (breadth first)."""
    start, members = group[0], set(group)
    previous = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in graph[node]:
            if target == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return list(reversed(path)) + [start]
            if target in members and target not in previous:
                previous[target] = node
                queue.append(target)
    return group


def _describe(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])) + f" -> {cycle[-1]}"


def _part(module: str) -> str:
    """The subpackage (or top-level module) of newscrawl a module belongs to; "" for the package itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _source_file(module: str, package: Path) -> Path:
    path = package.parent.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def layering_violations(graph: dict[str, dict[str, int]], layers: dict[str, set[str]] = LAYERS,
                        package: Path = PACKAGE) -> list[str]:
    """One line per import that crosses parts against the table: file, line, what it imports."""
    found = []
    for module, edges in sorted(graph.items()):
        part = _part(module)
        for target, line in sorted(edges.items()):
            target_part = _part(target)
            if not part or not target_part or target_part == part:
                continue
            if part not in layers:
                problem = f"newscrawl/{part} has no row in LAYERS"
            elif target_part in layers[part]:
                continue
            else:
                allowed = ", ".join(sorted(layers[part]))
                problem = f"{part} may import only {allowed}" if allowed else f"{part} may import nothing of newscrawl"
            where = _source_file(module, package).relative_to(package.parent)
            found.append(f"{where}:{line} imports {target}: {problem}")
    return found


def test_the_import_graph_has_no_cycle():
    graph = import_graph()
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(_describe(graph, cycle) for cycle in cycles)


def test_the_extractor_imports_nothing_from_the_crawl_side():
    graph = import_graph()
    crossing = sorted(f"{module} imports {target} (line {line})" for module, edges in graph.items()
                      if module == LIBRARY or module.startswith(LIBRARY + ".")
                      for target, line in edges.items()
                      if not (target == LIBRARY or target.startswith(LIBRARY + ".")))
    assert not crossing, "; ".join(crossing)


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    package = tmp_path / "newscrawl"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("import json\n\ndef f():\n    from ..c import g\n    return g\n")
    (package / "c.py").write_text("from . import a\n\ndef g():\n    return a\n")
    (package / "d.py").write_text("from .a import *\n")
    graph = import_graph(package)
    assert graph["newscrawl.sub.b"] == {"newscrawl.c": 4}
    assert graph["newscrawl.d"] == {"newscrawl.a": 1}
    assert find_cycles(graph) == [["newscrawl.a", "newscrawl.sub.b", "newscrawl.c", "newscrawl.a"]]
    assert find_cycles({"x": {"y": 1}, "y": {}}) == []


def test_the_subpackages_import_one_another_only_as_the_layers_allow():
    violations = layering_violations(import_graph())
    assert not violations, "imports against the layers:\n" + "\n".join(violations)


def test_the_layers_point_one_way():
    table = {part: dict.fromkeys(allowed, 0) for part, allowed in LAYERS.items()}
    assert not find_cycles(table)
    assert all(allowed <= LAYERS.keys() for allowed in LAYERS.values())
    parts = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()
             if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").is_file()}
    assert parts == LAYERS.keys(), "every subpackage and top-level module has a row, no row is stale"


def test_an_import_against_the_layers_is_named_with_its_file_and_line(tmp_path):
    package = tmp_path / "newscrawl"
    for part in ("extract", "crawl", "store"):
        (package / part).mkdir(parents=True)
        (package / part / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "settings.py").write_text("")
    (package / "extract" / "core.py").write_text("import json\n\n\ndef f():\n    from ..crawl import pages\n")
    (package / "crawl" / "pages.py").write_text("from ..extract import core\nfrom .. import settings\n")
    (package / "store" / "state.py").write_text("from ..crawl.pages import x\n")
    (package / "crawl" / "later.py").write_text("\nfrom newscrawl.store import state\n")
    layers = {"extract": set(), "settings": set(), "crawl": {"extract", "settings"}, "store": {"crawl"}}
    assert layering_violations(import_graph(package), layers, package) == [
        "newscrawl/crawl/later.py:2 imports newscrawl.store.state: crawl may import only extract, settings",
        "newscrawl/extract/core.py:5 imports newscrawl.crawl.pages: extract may import nothing of newscrawl",
    ]
    del layers["store"]
    assert layering_violations(import_graph(package), layers, package)[-1] == (
        "newscrawl/store/state.py:1 imports newscrawl.crawl.pages: newscrawl/store has no row in LAYERS")
