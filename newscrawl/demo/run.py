"""Run ``scrapy crawl news`` in a subprocess against a sites file (demo and tests)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# Fast settings for loopback sites: no throttling or delay, short timeouts, one retry.
LOOPBACK_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "0",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
    "DOWNLOAD_TIMEOUT": "2",
    "RETRY_TIMES": "1",
    "NEWSCRAWL_PROGRESS_INTERVAL": "5",
}


def write_sites_file(configs: list[dict], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump({"sites": configs}, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def crawl(sites: Path, output: Path | None = None, settings: dict | None = None, cwd: Path | None = None,
          args: tuple[str, ...] = (), timeout: float = 300) -> subprocess.CompletedProcess:
    """Run the real crawl command; output None leaves the default output path."""
    command = ["crawl", "news", "-a", f"sites={sites}", *args]
    if output is not None:
        command += ["-O", str(output)]
    for name, value in {**LOOPBACK_SETTINGS, **(settings or {})}.items():
        command += ["-s", f"{name}={value}"]
    return run_scrapy(command, cwd, timeout)


def run_scrapy(args: list[str], cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m scrapy ARGS`` with this project's settings, from any directory."""
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings",
               PYTHONPATH=os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=cwd or PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
