"""The import graph of newscrawl/ has no cycle, and the extractor imports nothing from the crawl side.

Every import statement counts, also one inside a function: an import placed there to dodge a cycle
hides the cycle from Python at start-up but not from this test. The graph is read from the syntax
trees, so it does not depend on which modules a test happens to load.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "newscrawl"
LIBRARY = "newscrawl.extract"


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
