"""Deploying to a real scrapyd on 127.0.0.1 with scrapyd-deploy, and running the demo crawl there.

One scrapyd (a free port, a temporary directory) gets two deploys of a copy of this project, whose
sites.yaml lists the demo web: one egg built where Cython cannot be imported, one where it can.
Four jobs run at once: two of the first project sharing one NEWSCRAWL_HOME (one crawls, the other
is refused by the lock), one with a sites path that does not exist, and one of the Cython-built
project with no sites argument (it reads the sites.yaml the egg carries). scrapyd lists every job
as finished; the exit status is in scrapyd's own log, the reason in the job's log.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from mockweb import needs_loopback, read_jsonl
from newscrawl.demo import DemoServer, write_sites_file
from newscrawl.demo.run import LOOPBACK_SETTINGS

pytestmark = needs_loopback

REPO_ROOT = Path(__file__).resolve().parent.parent
PROJECT_FILES = ("setup.py", "pyproject.toml", "scrapy.cfg")
PLAIN, WITH_CYTHON = "newscrawl", "newscrawl-cython"  # scrapyd project names of the two deploys
VERSION = "1"  # the version both are deployed as
JOBS_DEADLINE_SECONDS = 240  # the four jobs at once took 75-90 s on 2 cores busy with other work (load 9)
# Environment that would make a job import newscrawl from somewhere else than its egg, or change its paths
FOREIGN_ENVIRONMENT = ("PYTHONPATH", "SCRAPY_SETTINGS_MODULE", "SCRAPY_PROJECT", "NEWSCRAWL_HOME")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _copy_project(target: Path, sites: list[dict]) -> Path:
    """This project's packaging files and package, with the demo web as its sites.yaml."""
    target.mkdir(parents=True)
    for name in PROJECT_FILES:
        shutil.copy2(REPO_ROOT / name, target / name)
    shutil.copytree(REPO_ROOT / "newscrawl", target / "newscrawl",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "deployed"))
    write_sites_file(sites, target / "sites.yaml")
    return target


@dataclass
class Scrapyd:
    root: Path
    port: int
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def log(self) -> Path:
        return self.root / "scrapyd.log"

    def start(self, env: dict) -> Scrapyd:
        (self.root / "scrapyd.conf").write_text(
            "[scrapyd]\nbind_address = 127.0.0.1\n"
            f"http_port = {self.port}\neggs_dir = {self.root / 'eggs'}\nlogs_dir = {self.root / 'logs'}\n"
            f"dbs_dir = {self.root / 'dbs'}\nitems_dir =\njobs_dir =\npoll_interval = 0.2\nmax_proc = 4\n",
            encoding="utf-8")
        self.process = subprocess.Popen([sys.executable, "-m", "scrapyd", "-l", str(self.log), "--pidfile="],
                                        cwd=self.root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.get("daemonstatus.json")["status"] == "ok":
                    return self
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"scrapyd did not answer on {self.url}: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return json.loads(response.read())

    def text(self, path: str) -> str:
        with urllib.request.urlopen(urllib.parse.urljoin(self.url, path), timeout=10) as response:
            return response.read().decode("utf-8", "replace")

    def schedule(self, project: str, arguments: dict, settings: dict) -> str:
        # with _version, scrapyd reuses the spider list it made at deploy instead of starting `scrapy list`
        fields = [("project", project), ("spider", "news"), ("_version", VERSION), *arguments.items(),
                  *(("setting", f"{name}={value}") for name, value in settings.items())]
        request = urllib.request.Request(self.url + "schedule.json", urllib.parse.urlencode(fields).encode())
        with urllib.request.urlopen(request, timeout=60) as response:
            reply = json.loads(response.read())
        assert reply.get("status") == "ok", reply
        return reply["jobid"]

    def wait_finished(self, jobs: list[str]) -> dict[str, dict]:
        deadline = time.monotonic() + JOBS_DEADLINE_SECONDS
        while time.monotonic() < deadline:
            finished = {job["id"]: job for job in self.get("listjobs.json")["finished"]}
            if all(job in finished for job in jobs):
                return finished
            time.sleep(0.5)
        raise AssertionError(f"jobs still running after {JOBS_DEADLINE_SECONDS} s: {self.get('listjobs.json')}")

    def exit_status(self, job: str) -> int | None:
        """The job's exit status, from scrapyd's own log (its listjobs.json does not give it)."""
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            if f"job={job!r}" in line:
                if "Process finished:" in line:
                    return 0
                died = re.search(r"Process died: exitstatus=(\d+)", line)
                if died:
                    return int(died.group(1))
        return None


@dataclass
class Job:
    id: str
    status: int | None
    log: str  # fetched from the job's log_url, as its owner reads it
    home: Path

    def items(self) -> list[dict]:
        outputs = sorted((self.home / "output").glob("news-*.jsonl"))
        return read_jsonl(outputs[-1]) if outputs else []


def _deploy(server: Scrapyd, project_dir: Path, project: str, env: dict) -> dict:
    """``scrapyd-deploy`` of the project in ``project_dir`` to a target named in its scrapy.cfg."""
    with (project_dir / "scrapy.cfg").open("a", encoding="utf-8") as cfg:
        cfg.write(f"\n[deploy:test]\nurl = {server.url}\nproject = {project}\n")
    result = subprocess.run([sys.executable, "-m", "scrapyd_client.deploy", "test", "--version", VERSION],
                            cwd=project_dir, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    reply = json.loads(result.stdout)  # scrapyd-deploy exits 0 also when scrapyd refuses the egg
    assert reply["status"] == "ok", reply
    return reply


@pytest.fixture(scope="module")
def scrapyd_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("scrapyd")
    env = {name: value for name, value in os.environ.items() if name not in FOREIGN_ENVIRONMENT}
    # A Cython that fails to import, first on the path: the egg is built as where Cython is not installed
    (root / "no-cython" / "Cython").mkdir(parents=True)
    (root / "no-cython" / "Cython" / "__init__.py").write_text('raise ImportError("no Cython here")\n')
    web = DemoServer().start()
    server = Scrapyd(root / "server", _free_port())
    (root / "server").mkdir()
    try:
        server.start(env)
        sites = [site.config for site in web.sites]
        deploys = {
            PLAIN: _deploy(server, _copy_project(root / "plain", sites), PLAIN,
                           dict(env, PYTHONPATH=str(root / "no-cython"))),
            WITH_CYTHON: _deploy(server, _copy_project(root / "cython", sites), WITH_CYTHON, env),
        }
        sites_file = write_sites_file(sites, root / "demo-sites.yaml")
        homes = {name: root / name for name in ("shared-home", "bad-home", "cython-home")}
        settings = {name: dict(LOOPBACK_SETTINGS, NEWSCRAWL_HOME=home) for name, home in homes.items()}
        scheduled = {
            "first": (server.schedule(PLAIN, {"sites": str(sites_file)}, settings["shared-home"]), "shared-home"),
            "second": (server.schedule(PLAIN, {"sites": str(sites_file)}, settings["shared-home"]), "shared-home"),
            "bad_sites": (server.schedule(PLAIN, {"sites": "missing-sites.yaml"}, settings["bad-home"]), "bad-home"),
            "cython": (server.schedule(WITH_CYTHON, {}, settings["cython-home"]), "cython-home"),
        }
        finished = server.wait_finished([job for job, _ in scheduled.values()])
        jobs = {name: Job(job, server.exit_status(job), server.text(finished[job]["log_url"]), homes[home])
                for name, (job, home) in scheduled.items()}
        yield {"server": server, "web": web, "deploys": deploys, "jobs": jobs}
    finally:
        server.stop()
        web.stop()


def _expected_urls(web: DemoServer) -> set[str]:
    return {url for site in web.sites for url in site.articles}


def _crawled_and_refused(jobs: dict[str, Job]) -> tuple[Job, Job]:
    """The two jobs started at once on one home: whichever took the lock first crawled."""
    first, second = jobs["first"], jobs["second"]
    return (first, second) if first.status == 0 else (second, first)


def test_scrapyd_deploy_is_accepted(scrapyd_run):
    for project, reply in scrapyd_run["deploys"].items():
        assert reply["status"] == "ok", reply
        assert reply["project"] == project and reply["spiders"] >= 1


def test_deployed_eggs_carry_the_entry_point_and_sites_but_no_compiled_module(scrapyd_run):
    for project in (PLAIN, WITH_CYTHON):
        egg = scrapyd_run["server"].root / "eggs" / project / f"{VERSION}.egg"
        with zipfile.ZipFile(egg) as archive:
            names = archive.namelist()
            assert "settings = newscrawl.settings" in archive.read("EGG-INFO/entry_points.txt").decode()
            assert "newscrawl/deployed/sites.yaml" in names
        assert not [name for name in names if "_fastwalk" in name and not name.endswith(".pyx")], names


def test_scheduled_crawl_finds_every_demo_article(scrapyd_run):
    crawled, _ = _crawled_and_refused(scrapyd_run["jobs"])
    assert crawled.status == 0, crawled.log[-3000:]
    urls = [item["canonical_url"] for item in crawled.items()]
    assert sorted(urls) == sorted(_expected_urls(scrapyd_run["web"]))


def test_second_run_at_once_is_refused_with_the_reason_in_its_job_log(scrapyd_run):
    crawled, refused = _crawled_and_refused(scrapyd_run["jobs"])
    assert refused.status == 75, refused.log[-3000:]
    assert "ERROR: newscrawl: another run of this crawl is in progress" in refused.log
    assert f"lock {crawled.home / '.newscrawl' / 'state.sqlite.lock'}" in refused.log


def test_bad_sites_path_is_named_in_the_job_log(scrapyd_run):
    job = scrapyd_run["jobs"]["bad_sites"]
    assert job.status == 2, job.log[-3000:]
    assert f"ERROR: argument 'sites': missing-sites.yaml not found in {job.home} (NEWSCRAWL_HOME)" in job.log
    assert not (job.home / "output").exists()


def test_egg_built_with_cython_runs_from_the_egg_with_its_sites_file(scrapyd_run):
    job = scrapyd_run["jobs"]["cython"]
    assert job.status == 0, job.log[-3000:]
    assert "Traceback" not in job.log
    egg_sites = scrapyd_run["server"].root / "eggs" / WITH_CYTHON / f"{VERSION}.egg" / "newscrawl" / "deployed" / "sites.yaml"
    assert f"Sites file: {egg_sites} (3 sites)" in job.log
    assert {item["canonical_url"] for item in job.items()} == _expected_urls(scrapyd_run["web"])
