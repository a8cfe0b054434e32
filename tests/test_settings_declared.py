"""Every setting newscrawl reads is declared once, with its default, in newscrawl/settings.py.

The code is read as syntax trees: a read is a getter call on a settings object (``settings.getint(NAME,
default)``, ``crawler.settings.get(NAME) or default``, ``settings[NAME]``) with the name as a string or
a module constant holding one. A read setting must be declared in newscrawl/settings.py (or be one of
Scrapy's own), a default given where it is read must equal the declared one, and every ``NEWSCRAWL_*``
name in the code that is not an environment variable must be a declared setting. The settings tables
of docs/operations.md (the manual the README points to for settings) and the defaults the README
names beside a setting must agree with the declared values.
"""
from __future__ import annotations

import ast
import importlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import scrapy.settings.default_settings as scrapy_defaults

import newscrawl.settings as declared

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "newscrawl"
GETTERS = {"get", "getbool", "getint", "getfloat", "getlist", "getdict", "getdictorlist", "getwithbase"}
SETTING_NAME_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")
OWN_NAME_RE = re.compile(r"^NEWSCRAWL_[A-Z0-9_]+$")
NO_DEFAULT = object()


@dataclass(frozen=True)
class Read:
    name: str
    module: str
    line: int
    default: ast.expr | None   # the default expression given where it is read, if any

    def where(self) -> str:
        return f"{self.module}:{self.line}"


def _module_name(path: Path, root: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "VALUE"`` assignments."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def _imported_constants(tree: ast.Module, module: str, constants: dict[str, dict[str, str]]) -> dict[str, str]:
    """Names a module imports from another newscrawl module's string constants."""
    found = {}
    package = module.split(".")
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - node.level] if not module.endswith("__init__") else package
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                value = constants.get(source, {}).get(alias.name)
                if value is not None:
                    found[alias.asname or alias.name] = value
    return found


def _is_settings(node: ast.expr) -> bool:
    return ast.unparse(node).split(".")[-1] == "settings"


def _name_of(node: ast.expr, names: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
    elif isinstance(node, ast.Name):
        value = names.get(node.id)
    else:
        return None
    return value if value and SETTING_NAME_RE.match(value) else None


def _reads_in(tree: ast.Module, module: str, names: dict[str, str]) -> list[Read]:
    reads = []
    or_defaults = {}   # getter call -> the right side of ``getter(NAME) or default``
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and isinstance(node.values[0], ast.Call) \
                and not re.search(r"environ|getenv", ast.unparse(node.values[1])):   # the environment is no default
            or_defaults[id(node.values[0])] = node.values[1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in GETTERS \
                and _is_settings(node.func.value) and node.args:
            name = _name_of(node.args[0], names)
            if name:
                default = node.args[1] if len(node.args) > 1 else or_defaults.get(id(node))
                reads.append(Read(name, module, node.lineno, default))
        elif isinstance(node, ast.Subscript) and _is_settings(node.value) and isinstance(node.ctx, ast.Load):
            name = _name_of(node.slice, names)
            if name:
                reads.append(Read(name, module, node.lineno, None))
    return reads


def _environment_names(tree: ast.Module, names: dict[str, str]) -> set[str]:
    """Names read from the environment: ``os.environ.get(N)``, ``os.environ[N]``, ``os.getenv(N)``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and ast.unparse(node.func) in ("os.environ.get", "os.getenv"):
            found.add(_name_of(node.args[0], names))
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            found.add(_name_of(node.slice, names))
    return found - {None}


def _own_names_in(tree: ast.Module) -> list[tuple[str, int]]:
    return [(node.value, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and OWN_NAME_RE.match(node.value)]


def scan(package: Path = PACKAGE):
    """(settings reads, NEWSCRAWL_* names used, environment variable names) of the package's code."""
    trees = {_module_name(path, package.parent): ast.parse(path.read_text(encoding="utf-8"))
             for path in sorted(package.rglob("*.py"))}
    constants = {module: _string_constants(tree) for module, tree in trees.items()}
    reads, used, environment = [], [], set()
    for module, tree in trees.items():
        names = {**_imported_constants(tree, module, constants), **constants[module]}
        reads += _reads_in(tree, module, names)
        environment |= _environment_names(tree, names)
        used += [(name, f"{module}:{line}") for name, line in _own_names_in(tree)]
    return reads, used, environment


READS, USED_NAMES, ENVIRONMENT_NAMES = scan()
DECLARED = {name: getattr(declared, name) for name in dir(declared) if SETTING_NAME_RE.match(name)}


def test_the_scan_finds_the_reads_it_is_meant_to():
    found = {(read.name, read.module) for read in READS}
    assert ("NEWSCRAWL_GC_THRESHOLD", "newscrawl.run.gctune") in found                 # crawler.settings.getint
    assert ("NEWSCRAWL_HOME", "newscrawl.config.paths") in found                           # through a module constant
    assert ("NEWSCRAWL_CHROMIUM_PATH", "newscrawl.render.plan") in found
    templates_dir = [read for read in READS if read.name == "NEWSCRAWL_TEMPLATES_DIR"]
    assert templates_dir and all(read.default is not None for read in templates_dir)   # ``get(N) or default``
    assert "NEWSCRAWL_PURE_PYTHON" in ENVIRONMENT_NAMES


def test_every_setting_read_is_declared():
    undeclared = sorted({f"{read.name} ({read.where()})" for read in READS
                         if read.name not in DECLARED and not hasattr(scrapy_defaults, read.name)})
    assert not undeclared, f"read but not declared in newscrawl/settings.py: {', '.join(undeclared)}"


def test_every_newscrawl_name_in_the_code_is_a_declared_setting_or_an_environment_variable():
    unknown = sorted({f"{name} ({where})" for name, where in USED_NAMES
                      if name not in DECLARED and name not in ENVIRONMENT_NAMES})
    assert not unknown, f"neither declared in newscrawl/settings.py nor read from the environment: {unknown}"


def _namespace(module_name: str) -> dict:
    """The module's globals and the names its functions import (``from .state import X`` inside one)."""
    module = importlib.import_module(module_name)
    names = dict(vars(module))
    for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            source = importlib.import_module("." * node.level + (node.module or ""), module.__package__)
            for alias in node.names:
                names.setdefault(alias.asname or alias.name, getattr(source, alias.name, None))
    return names


def _default_value(read: Read):
    """The default given where the setting is read, evaluated in its module (NO_DEFAULT when none)."""
    if read.default is None:
        return NO_DEFAULT
    code = compile(ast.Expression(read.default), read.module, "eval")
    return eval(code, _namespace(read.module))  # noqa: S307 - an expression of our own code


def _owned(name: str) -> bool:
    """A setting of newscrawl's own (not one of Scrapy's or a plugin's, whose read sites may keep the
    plugin's default as their fallback)."""
    return name.startswith("NEWSCRAWL_") or name == "STATE_PATH"


def test_a_default_given_where_a_setting_is_read_is_the_declared_one():
    disagree = []
    for read in READS:
        if not _owned(read.name) or read.name not in DECLARED:
            continue
        default = _default_value(read)
        if default is not NO_DEFAULT and default != DECLARED[read.name]:
            disagree.append(f"{read.name} at {read.where()}: {default!r}, declared {DECLARED[read.name]!r}")
    assert not disagree, "defaults differ from newscrawl/settings.py: " + "; ".join(disagree)


# --- the manual's tables ------------------------------------------------------------------
SWITCH_WORDS = {"on": True, "off": False, "none": None, "unset": None}
NUMBER_RE = re.compile(r"^(-?[\d,]*\.?\d+)\s*(KiB|MiB|s|ms|MB)?$")
UNIT_BYTES = {"KiB": 1024, "MiB": 1024 * 1024}


def read_default(text: str, name: str):
    """The value a default cell of the manual stands for (a word for what None means stays a str)."""
    text = text.split("→")[0].strip().strip("`").strip()
    text = re.sub(r"\s*\(.*\)$", "", text).strip()
    if text.lower() in SWITCH_WORDS:
        return SWITCH_WORDS[text.lower()]
    if text == "None":
        return None
    number = NUMBER_RE.match(text)
    if number:
        value = float(number.group(1).replace(",", ""))
        if name.endswith("_BYTES") and number.group(2) in UNIT_BYTES:
            value *= UNIT_BYTES[number.group(2)]
        return value
    if text.startswith("["):
        return json.loads(text)
    return text


def agrees(value, documented) -> bool:
    if value is None or value == {}:
        return documented is None or (isinstance(documented, str) and not NUMBER_RE.match(documented))
    if isinstance(value, bool) or isinstance(documented, bool):
        return value is documented
    if isinstance(value, (int, float)):
        return isinstance(documented, float) and float(value) == documented
    return value == documented


def manual_rows(text: str) -> list[tuple[list[str], list[str], int]]:
    """(setting names, default cells, line) of the rows of every | setting | default | ... | table."""
    rows, in_table = [], False
    for number, line in enumerate(text.splitlines(), 1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            in_table = False
        elif cells[:2] == ["setting", "default"]:
            in_table = True
        elif in_table and not set(cells[0]) <= set("-: "):
            names = re.findall(r"`([A-Z][A-Z0-9_]*)`", cells[0])
            defaults = re.split(r",\s+", cells[1]) if len(names) > 1 else [cells[1]]
            rows.append((names, defaults * len(names) if len(defaults) == 1 else defaults, number))
    return rows


MANUAL = ROOT / "docs" / "operations.md"
MANUAL_ROWS = manual_rows(MANUAL.read_text(encoding="utf-8"))


def test_the_manual_table_gives_each_name_one_default():
    assert len(MANUAL_ROWS) > 40
    uneven = [line for names, defaults, line in MANUAL_ROWS if len(names) != len(defaults)]
    assert not uneven, f"docs/operations.md lines {uneven}: one default per setting, or one for all"


def test_every_declared_newscrawl_setting_is_in_the_manual():
    documented = {name for names, _, _ in MANUAL_ROWS for name in names}
    missing = sorted(name for name in DECLARED if name.startswith("NEWSCRAWL_") and name not in documented)
    assert not missing, f"declared but not in a settings table of docs/operations.md: {missing}"


def test_the_manual_defaults_are_the_declared_ones():
    wrong = []
    for names, defaults, line in MANUAL_ROWS:
        for name, cell in zip(names, defaults):
            if name not in DECLARED:
                wrong.append(f"line {line}: {name} is not declared in newscrawl/settings.py")
            elif not isinstance(DECLARED[name], dict) or not DECLARED[name]:   # a non-empty dict is described
                if not agrees(DECLARED[name], read_default(cell, name)):
                    wrong.append(f"line {line}: {name} is {cell!r} there, declared {DECLARED[name]!r}")
    assert not wrong, "docs/operations.md disagrees with newscrawl/settings.py: " + "; ".join(wrong)


# ``(`NAME`, default)``, ``(default `NAME`, 1000)`` or ```NAME` seconds (60)`` in the README's prose
README_DEFAULT_RE = re.compile(r"`(NEWSCRAWL_[A-Z0-9_]+)`(?:,\s*|\s+(?:[a-z]+\s+)?\()([^()]+?)\)")


def test_the_defaults_the_readme_names_are_the_declared_ones():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = README_DEFAULT_RE.findall(text)
    assert len(named) >= 5
    wrong = [f"{name}: {cell!r}, declared {DECLARED.get(name)!r}" for name, cell in named
             if name not in DECLARED or not agrees(DECLARED[name], read_default(cell, name))]
    assert not wrong, "README.md disagrees with newscrawl/settings.py: " + "; ".join(wrong)


@pytest.mark.parametrize("cell, name, value", [
    ("10,000", "NEWSCRAWL_GC_THRESHOLD", 10_000.0),
    ("4 MiB", "NEWSCRAWL_MAX_CACHED_LISTING_BYTES", 4 * 1024 * 1024.0),
    ("32 MiB", "NEWSCRAWL_LISTING_CACHE_MIB", 32.0),
    ("60 s", "NEWSCRAWL_RETRY_AFTER_MAX", 60.0),
    ("on", "NEWSCRAWL_STATE_ENABLED", True),
    ("0 (4 per CPU)", "NEWSCRAWL_RENDER_MAX_PAGES", 0.0),
    ("`None` → `$NEWSCRAWL_CHROMIUM_PATH` → `/usr/bin/chromium`", "NEWSCRAWL_CHROMIUM_PATH", None),
    ('`["Script"]`', "NEWSCRAWL_RENDER_OFFSITE_TYPES", ["Script"]),
    ("`output`", "NEWSCRAWL_OUTPUT_DIR", "output"),
])
def test_manual_cells_are_read_as_values(cell, name, value):
    assert read_default(cell, name) == value


def test_a_disagreeing_default_is_found(tmp_path):
    """The checks above find a drift like the gc threshold's (0 where it was read, 10,000 declared)."""
    module = tmp_path / "newscrawl" / "drift.py"
    module.parent.mkdir()
    module.write_text('NAME = "NEWSCRAWL_GC_THRESHOLD"\n\ndef f(crawler):\n'
                      '    return crawler.settings.getint(NAME, 0), crawler.settings.getbool("NEWSCRAWL_NOT_DECLARED")\n')
    reads, used, _ = scan(module.parent)
    assert [(read.name, ast.literal_eval(read.default) if read.default else None) for read in reads] == \
        [("NEWSCRAWL_GC_THRESHOLD", 0), ("NEWSCRAWL_NOT_DECLARED", None)]
    assert not agrees(DECLARED["NEWSCRAWL_GC_THRESHOLD"], read_default("0", "NEWSCRAWL_GC_THRESHOLD"))
    assert "NEWSCRAWL_NOT_DECLARED" not in DECLARED
