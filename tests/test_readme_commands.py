"""Every command in README.md is run: by a test here, by another test, or by CI (.ci/run).

The README's shell and cron blocks are read from README.md itself, the systemd units from
docs/operations.md. ``COVERAGE`` maps each
shell command (normalised: continuation lines joined, comment dropped, spaces collapsed) to where it
runs; a README command missing from the table fails, and so does a table entry the README no longer
has. Commands run here are taken verbatim from the README and run with bash in a directory set up
like a checkout (``scrapy.cfg``, ``sites.yaml``, ``page.html``) against a small web on 127.0.0.0/8,
with two substitutions only: machine paths (``/srv/newscrawl``, ``/var/lib/newscrawl``) point into
the test's directory, and example URLs point at the loopback web. The checkout's settings module is
newscrawl's with politeness delays off (loopback servers need none) and a time bound.
"""
from __future__ import annotations

import configparser
import getpass
import http.server
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from incremental_web import IncrementalWeb
from newscrawl.demo.server import loopback_works

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
OPERATIONS = REPO / "docs" / "operations.md"  # the systemd units the README points to
CI_SCRIPT = REPO / ".ci" / "run"
# The evaluation data beside the checkout (benchmarks/common.py reads $NEWSCRAWL_SHARED the same way).
SHARED = Path(os.environ.get("NEWSCRAWL_SHARED") or REPO.parent / "shared").resolve()
SHELL_LANGS = ("sh", "bash", "shell", "console")
# The README's example paths on a server, and example URLs, as they are replaced in a test run.
SERVER_CHECKOUT = "/srv/newscrawl"
STATE_DIR = "/var/lib/newscrawl"
EXAMPLE_PAGE_URL = "https://example.com/news/story.html"
# Site names of the README's ``-a only=`` example, given to the two sites of the loopback web.
EXAMPLE_SITE_NAMES = ("bbc-news", "npr")
CRAWL_TIMEOUT = 240  # seconds for one README crawl command on the loopback web

# README command (normalised) -> where it runs: ("here", test function of this module),
# ("ci", text of .ci/run), ("test", "tests/file.py::function", text of that function), or
# ("file", path, text): a document that says who runs it.
COVERAGE: dict[str, list[tuple[str, ...]]] = {
    # Quick start
    "scripts/quickstart": [("ci", 'PYTHON="$PYTHON" scripts/quickstart\n'), ("here", "test_demo_commands")],
    "scripts/quickstart test": [("ci", "timeout 1800 scripts/quickstart test")],
    # Feeding an index
    "python3 -m newscrawl.store.search 龙舟 --db output/demo/articles.sqlite": [("here", "test_search_command")],
    # Using the extractor
    "python3 -m newscrawl.extract page.html": [("here", "test_extractor_commands")],
    "python3 -m newscrawl.extract page.html --format text": [("here", "test_extractor_commands")],
    f"python3 -m newscrawl.extract {EXAMPLE_PAGE_URL} --format text": [("here", "test_extractor_commands")],
    # Crawling your own sites
    "scrapy crawl news -a sites=sites.yaml": [("here", "test_crawl_and_state_commands")],
    "scrapy crawl news -a sites=sites.yaml -a only=bbc-news,npr -O articles.jsonl": [
        ("here", "test_crawl_and_state_commands")],
    # Running on a server
    "scrapyd-deploy": [("file", "tests/test_scrapyd.py", "scrapyd-deploy")],
    "curl http://localhost:6800/schedule.json -d project=newscrawl -d spider=news -d "
    "setting=NEWSCRAWL_HOME=/var/lib/newscrawl": [("file", "tests/test_scrapyd.py", '"schedule.json"')],
    "python3 -m newscrawl.health": [("here", "test_crawl_and_state_commands")],
    "python3 -m newscrawl.store.state_admin info": [("here", "test_crawl_and_state_commands")],
    "python3 -m newscrawl.store.state_admin check": [("here", "test_crawl_and_state_commands")],
    "python3 -m newscrawl.store.state_admin prune --days 90": [("here", "test_crawl_and_state_commands")],
    "python3 -m newscrawl.store.state_admin reset": [("here", "test_crawl_and_state_commands")],
    "scrapy crawl news -a sites=sites.yaml -s JOBDIR=jobs/news-1": [("here", "test_crawl_and_state_commands")],
    "redis-server --port 6379 --bind 10.0.0.5 --appendonly yes --appendfsync always": [
        ("test", "tests/test_redis.py::_start_redis", "redis-server")],
    "scrapy crawl news -a sites=sites.yaml -s REDIS_URL=redis://10.0.0.5:6379/0 -o crawler-a.jsonl": [
        ("test", "tests/test_redis.py::test_two_crawlers_share_one_queue_and_emit_each_article_once",
         "REDIS_URL")],
    # Other extraction methods
    # Accuracy and speed
    "python3 benchmarks/accuracy.py --peers": [("here", "test_benchmark_commands")],
    "python3 ../shared/eval/score_cases.py ../shared/eval/realworld-trafilatura ../shared/eval/fundus-dev "
    "-e newscrawl.extract:extract -e trafilatura -e readability": [("here", "test_benchmark_commands")],
    "python3 benchmarks/speed.py": [("here", "test_benchmark_commands")],
    # Development
    "python3 benchmarks/accuracy.py --check": [("ci", '"$VENV_PYTHON" benchmarks/accuracy.py --check')],
    "bash .ci/run": [("file", "DEVELOPERS.md", "CI runs `bash .ci/run`")],
}
# Options a test run adds to a benchmark command so that it measures a few pages, not thousands.
BENCHMARK_QUICK_OPTIONS = {
    "benchmarks/accuracy.py": "--limit 2 --data cx_zh --meta zh-gne",
    "score_cases.py": "--limit 2",
    "benchmarks/speed.py": "--limit 3 --data cx_zh --memory-pages 0",
}
PEER_MODULES = ("trafilatura", "readability", "htmldate", "gne")


# --- reading the README --------------------------------------------------------------------------

def readme_blocks(document: Path = README) -> list[tuple[str, str]]:
    """(language, text) of every fenced code block of the README, or another document (indented fences too)."""
    blocks, language, lines, indent = [], None, [], ""
    for line in document.read_text(encoding="utf-8").splitlines():
        fence = re.match(r"^(\s*)```(\S*)\s*$", line)
        if fence and language is None:
            indent, language, lines = fence.group(1), fence.group(2) or "text", []
        elif fence and language is not None:
            blocks.append((language, "\n".join(lines)))
            language = None
        elif language is not None:
            lines.append(line[len(indent):] if line.startswith(indent) else line)
    assert language is None, f"{document.name} has an unclosed code fence"
    return blocks


def normalise(command: str) -> str:
    """One line: continuations joined, a trailing ``# comment`` dropped, spaces collapsed."""
    command = re.sub(r"\\\n\s*", " ", command)
    command = re.sub(r"\s+#\s.*$", "", command)
    return " ".join(command.split())


def shell_commands() -> list[str]:
    commands = []
    for language, text in readme_blocks():
        if language not in SHELL_LANGS:
            continue
        for line in text.replace("\\\n", " ").splitlines():
            command = normalise(line)
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def block_of(language: str, document: Path = README) -> list[str]:
    return [text for lang, text in readme_blocks(document) if lang == language]


def systemd_units() -> tuple[str, str]:
    """The service and the timer unit of docs/operations.md (its other ini blocks configure other tools)."""
    units = [text for text in block_of("ini", OPERATIONS) if "[Service]" in text or "[Timer]" in text]
    service, timer = units
    assert "[Service]" in service and "[Timer]" in timer, units
    return service, timer


def commands_for(test_name: str) -> list[str]:
    found = [c for c in shell_commands() if ("here", test_name) in COVERAGE.get(c, [])]
    assert found, f"no README command is run by {test_name}"
    return found


# --- the table is complete and true ---------------------------------------------------------------

def test_the_readme_has_shell_commands_and_the_blocks_they_need():
    assert len(shell_commands()) >= 10
    assert block_of("cron") and systemd_units() and block_of("python")


def test_every_readme_command_is_in_the_table():
    missing = [c for c in shell_commands() if c not in COVERAGE]
    assert not missing, ("README commands that no test or CI step runs (add them to COVERAGE with the test "
                         "that runs them):\n" + "\n".join(missing))


def test_every_table_entry_is_still_in_the_readme():
    stale = sorted(set(COVERAGE) - set(shell_commands()))
    assert not stale, "COVERAGE names commands the README no longer has:\n" + "\n".join(stale)


def test_every_place_named_in_the_table_runs_the_command():
    problems = []
    for command, places in COVERAGE.items():
        for place in places:
            kind = place[0]
            if kind == "here" and not callable(globals().get(place[1])):
                problems.append(f"{command}: no test {place[1]} in {Path(__file__).name}")
            elif kind == "ci" and place[1] not in CI_SCRIPT.read_text(encoding="utf-8"):
                problems.append(f"{command}: .ci/run does not contain {place[1]!r}")
            elif kind == "test" and place[2] not in _function_source(*place[1].split("::")):
                problems.append(f"{command}: {place[1]} does not contain {place[2]!r}")
            elif kind == "file" and place[2] not in (REPO / place[1]).read_text(encoding="utf-8"):
                problems.append(f"{command}: {place[1]} does not say {place[2]!r}")
    assert not problems, "\n".join(problems)


def _function_source(path: str, name: str) -> str:
    """The source of top-level function ``name`` in ``path`` (empty when it is not there)."""
    text = (REPO / path).read_text(encoding="utf-8")
    match = re.search(rf"^(?:@.*\n)*def {re.escape(name)}\(.*?(?=^\S)", text + "\nEND", re.M | re.S)
    return match.group(0) if match else ""


# --- a checkout on the loopback web ---------------------------------------------------------------

LOOPBACK_SETTINGS_MODULE = '''"""newscrawl's settings for a checkout whose sites are loopback servers started by a test."""
from newscrawl.settings import *  # noqa: F401,F403

AUTOTHROTTLE_ENABLED = False
DOWNLOAD_DELAY = 0
DOWNLOAD_TIMEOUT = 5
RETRY_TIMES = 1
CONCURRENT_REQUESTS_PER_DOMAIN = 8
NEWSCRAWL_EXTRACT_WORKERS = 0  # in the crawl process: no worker to start for a dozen pages
CLOSESPIDER_TIMEOUT = 120
'''


@pytest.fixture(scope="module")
def web():
    if not loopback_works():
        pytest.fail("the README commands run against servers on 127.0.0.2+, which this machine cannot bind")
    web = IncrementalWeb().start()
    web.publish_first_edition()
    yield web
    web.stop()


def make_checkout(directory: Path, web: IncrementalWeb) -> Path:
    """A directory that looks like a checkout to ``scrapy``: scrapy.cfg, settings, sites.yaml, a page."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "scrapy.cfg").write_text("[settings]\ndefault = checkout_settings\n", encoding="utf-8")
    (directory / "checkout_settings.py").write_text(LOOPBACK_SETTINGS_MODULE, encoding="utf-8")
    sites = [dict(config, name=name) for config, name in zip(web.sites_config(), EXAMPLE_SITE_NAMES)]
    import yaml

    (directory / "sites.yaml").write_text(yaml.safe_dump({"sites": sites}), encoding="utf-8")
    shutil.copy(REPO / "tests" / "pages" / "en_jsonld_date" / "source.html", directory / "page.html")
    return directory


def command_env(path: str | None = None) -> dict:
    """The environment of a README command: this Python's scripts first on PATH, the package importable."""
    bin_dir = str(Path(sys.executable).parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    env["PATH"] = path or os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
    return env


def run_readme(command: str, cwd: Path, path: str | None = None, timeout: float = CRAWL_TIMEOUT):
    command = command.replace(SERVER_CHECKOUT, str(cwd)).replace(STATE_DIR, str(cwd / "var-lib-newscrawl"))
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=command_env(path), capture_output=True,
                          text=True, timeout=timeout)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# --- the commands run here -------------------------------------------------------------------------

def test_extractor_commands(tmp_path, web):
    checkout = make_checkout(tmp_path / "checkout", web)
    page_url = _serve_file(checkout / "page.html")
    for command in commands_for("test_extractor_commands"):
        done = run_readme(command.replace(EXAMPLE_PAGE_URL, page_url), checkout, timeout=120)
        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        if "--format text" in command:
            assert len(done.stdout.strip()) > 200 and not done.stdout.lstrip().startswith("{"), command
        else:
            result = json.loads(done.stdout)
            assert result["reason"] is None and result["title"], command


def test_python_example_runs(tmp_path, web, monkeypatch, capsys):
    checkout = make_checkout(tmp_path / "checkout", web)
    monkeypatch.chdir(checkout)
    (example,) = block_of("python")
    exec(compile(example, "README.md python block", "exec"), {})  # noqa: S102 (the README's own example)
    printed = capsys.readouterr().out
    assert len(printed.splitlines()) >= 3, printed


def test_crawl_and_state_commands(tmp_path, web):
    checkout = make_checkout(tmp_path / "checkout", web)
    commands = commands_for("test_crawl_and_state_commands")
    for command in commands:
        runs = 2 if "JOBDIR=" in command else 1  # pause and continue: the same command twice
        for _ in range(runs):
            done = run_readme(command, checkout)
            assert done.returncode == 0, f"{command}\n{done.stderr[-3000:]}"
        if command.endswith("state_admin info"):
            assert json.loads(done.stdout)["articles"] >= 1, done.stdout
        if command.endswith("newscrawl.health"):  # after the crawls above: their summaries and state
            assert "sites need a look" in done.stdout and "over 1 run" in done.stdout, done.stdout
            assert "newscrawl site health" in (checkout / "site-health.html").read_text(encoding="utf-8")
        if command.endswith("state_admin reset"):
            assert not (checkout / ".newscrawl" / "state.sqlite").exists()
    default_outputs = sorted((checkout / "output").glob("news-*.jsonl"))
    assert default_outputs and read_jsonl(default_outputs[0]), "the first crawl wrote no articles"
    subset = read_jsonl(checkout / "articles.jsonl")
    assert {item["site"] for item in subset} <= set(EXAMPLE_SITE_NAMES)
    assert (checkout / "jobs" / "news-1").is_dir()


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """The directory the quick start's demo ran in, and how it ended."""
    (command,) = commands_for("test_demo_commands")
    demo = "python3 -m newscrawl.demo"  # what the script runs after its install (the install is CI's step)
    assert '"$py" -m newscrawl.demo' in (REPO / command).read_text(encoding="utf-8")
    workdir = tmp_path_factory.mktemp("demo")
    return workdir, run_readme(demo, workdir)


def test_demo_commands(demo_run):
    workdir, done = demo_run
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"^articles written: 1\d, to ", done.stderr, re.M), done.stderr[-2000:]
    assert read_jsonl(workdir / "output" / "demo" / "articles.jsonl")


def test_search_command(demo_run):
    """The README's search of the demo's store finds the dragon-boat story first; an English query,
    given the same way, finds its story first too."""
    workdir, _ = demo_run
    (command,) = commands_for("test_search_command")
    articles = {item["title"]: item["canonical_url"]
                for item in read_jsonl(workdir / "output" / "demo" / "articles.jsonl")}
    for query, title in (("龙舟", "江城举办首届龙舟邀请赛"),
                         ("ferry timetable", "City council approves a new ferry timetable for the islands")):
        done = run_readme(command.replace("龙舟", shlex.quote(query)), workdir)
        assert done.returncode == 0, done.stderr[-2000:]
        first = done.stdout.splitlines()[:2]
        assert first[0] == f"1. {title}" and first[1].endswith(f" | {articles[title]}"), done.stdout[:2000]


def test_sites_yaml_examples_are_valid():
    from newscrawl.config.sites import parse_sites

    examples = block_of("yaml")
    assert len(examples) >= 2
    for text in examples:  # a whole file, or entries of its sites: list
        sites = parse_sites(text if text.startswith("sites:") else "sites:\n" + text, "README.md")
        assert sites and all(site.start_urls for site in sites)


def test_cron_line_runs_as_written(tmp_path, web):
    (crontab,) = block_of("cron")
    checkout = make_checkout(tmp_path / "srv-newscrawl", web)
    (checkout / ".venv").mkdir()
    (checkout / ".venv" / "bin").symlink_to(Path(sys.executable).parent)  # the venv the crontab's PATH names
    env_lines = [line for line in crontab.splitlines() if re.match(r"^[A-Z_]+=", line)]
    jobs = [line for line in crontab.splitlines() if line.strip() and not line.startswith("#") and line not in env_lines]
    assert len(jobs) == 1, crontab
    fields = jobs[0].split(None, 5)
    assert len(fields) == 6 and all(re.fullmatch(r"[\d*,/-]+", f) for f in fields[:5]), jobs[0]
    path = dict(line.split("=", 1) for line in env_lines).get("PATH", "/usr/bin:/bin")
    done = run_readme(fields[5], checkout, path=path.replace(SERVER_CHECKOUT, str(checkout)))
    log = checkout / "logs" / "cron.log"
    assert done.returncode == 0, done.stderr[-2000:] + (log.read_text(errors="replace")[-3000:] if log.exists() else "")
    assert (checkout / "logs" / "news.log").stat().st_size > 0
    outputs = list((checkout / "output").glob("news-*.jsonl"))
    assert outputs and read_jsonl(outputs[0])


def test_systemd_units_verify_and_their_command_runs(tmp_path, web):
    service, timer = systemd_units()
    checkout = make_checkout(tmp_path / "srv-newscrawl", web)
    (checkout / ".venv").mkdir()
    (checkout / ".venv" / "bin").symlink_to(Path(sys.executable).parent)
    units = tmp_path / "units"
    units.mkdir()
    user = getpass.getuser()
    for name, text in (("newscrawl.service", service), ("newscrawl.timer", timer)):
        text = text.replace(SERVER_CHECKOUT, str(checkout)).replace("User=newscrawl", f"User={user}")
        (units / name).write_text(text + "\n", encoding="utf-8")
    parsed = configparser.ConfigParser(strict=False, interpolation=None)
    parsed.optionxform = str
    parsed.read(units / "newscrawl.service")
    unit = parsed["Service"]
    assert unit["Type"] == "oneshot" and "75" in unit["SuccessExitStatus"].split()
    timer_unit = configparser.ConfigParser(interpolation=None)
    timer_unit.read(units / "newscrawl.timer")
    assert timer_unit["Timer"]["OnCalendar"] and timer_unit["Install"]["WantedBy"] == "timers.target"
    verify = shutil.which("systemd-analyze")
    if verify:
        done = subprocess.run([verify, "verify", str(units / "newscrawl.service"), str(units / "newscrawl.timer")],
                              capture_output=True, text=True, timeout=60)
        lines = [line for line in done.stderr.splitlines() if "newscrawl" in line]
        assert done.returncode == 0 and not lines, done.stderr
    # The service's command, in its working directory with its PATH, as systemd would run it.
    path = unit["Environment"].split("=", 1)[1] if unit.get("Environment", "").startswith("PATH=") else None
    done = subprocess.run(shlex.split(unit["ExecStart"]), cwd=unit["WorkingDirectory"], env=command_env(path),
                          capture_output=True, text=True, timeout=CRAWL_TIMEOUT)
    allowed = {0} | {int(code) for code in unit["SuccessExitStatus"].split()}
    assert done.returncode in allowed, done.stderr[-3000:]


def test_benchmark_commands(tmp_path):
    if not (SHARED / "eval" / "score.py").is_file():
        pytest.skip(f"the benchmark commands need the evaluation data at {SHARED}")
    missing = [name for name in PEER_MODULES if _missing(name)]
    if missing:
        pytest.skip(f"the benchmark commands compare with peers not installed here: {', '.join(missing)} "
                    "(pip install -r benchmarks/requirements.txt)")
    for command in commands_for("test_benchmark_commands"):
        quick = next(options for script, options in BENCHMARK_QUICK_OPTIONS.items() if script in command)
        done = run_readme(f"{command} {quick}".replace("../shared/", f"{SHARED}/"), REPO, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def _missing(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is None


def _serve_file(path: Path) -> str:
    """Serve one file on 127.0.0.1 for the rest of the test session; its URL."""
    body = path.read_bytes()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server naming)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):  # noqa: A002 (signature of the base class)
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/news/story.html"
