"""What the benchmark scripts share: where ../shared is and how its scorer loads pages.

Pages are loaded and decoded by ``../shared/eval/score.py`` itself (``load_dataset``), so
the speed benchmark feeds every extractor the very strings the accuracy scorer does.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = REPO_ROOT.parent / "shared"
# Extractor options (a JSON object) for benchmarks/optioned_extract.py (accuracy.py --option).
OPTIONS_VARIABLE = "NEWSCRAWL_BENCH_OPTIONS"


def shared_dir(option: str | None = None) -> Path:
    """The shared data folder: --shared, else $NEWSCRAWL_SHARED, else ../shared beside the repo."""
    return Path(option or os.environ.get("NEWSCRAWL_SHARED") or DEFAULT_SHARED).resolve()


def skip_without_shared(shared: Path) -> None:
    """Exit 0 with a message when the evaluation data is not there (a checkout without ../shared)."""
    if not (shared / "eval" / "score.py").is_file():
        print(f"skipped: no evaluation data at {shared} (expected {shared}/eval/score.py)")
        raise SystemExit(0)


def datasets_in(folder: Path, names: list[str] | None = None) -> list[Path]:
    """Dataset folders (those holding truth.jsonl), all or the named ones; an unknown name exits 2."""
    found = {p.name: p for p in sorted(folder.iterdir()) if (p / "truth.jsonl").is_file()}
    return chosen_sets(found, names, f"dataset(s) in {folder}")


def chosen_sets(found: dict[str, Path], names: list[str] | None, what: str) -> list[Path]:
    """All the ``found`` sets, or the named ones; an unknown name exits 2, saying ``what`` was looked for."""
    if not names:
        return list(found.values())
    unknown = [n for n in names if n not in found]
    if unknown:
        print(f"unknown {what}: {', '.join(unknown)}; have: {', '.join(found)}", file=sys.stderr)
        raise SystemExit(2)
    return [found[n] for n in names]


def load_score_module(shared: Path) -> ModuleType:
    """Import ../shared/eval/score.py as a module (its loader and decoder, not its CLI)."""
    return load_eval_module(shared, "score")


def load_eval_module(shared: Path, name: str) -> ModuleType:
    """Import ../shared/eval/<name>.py as a module (score, score_cases: their functions, not their CLI)."""
    spec = importlib.util.spec_from_file_location(f"shared_eval_{name}", shared / "eval" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def use_repo_package() -> None:
    """Make ``import newscrawl`` find this checkout when run as ``python benchmarks/x.py``."""
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
