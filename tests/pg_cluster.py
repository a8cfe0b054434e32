"""A throwaway PostgreSQL server for the sink tests: ``initdb`` and ``pg_ctl`` in a temporary
directory, listening on 127.0.0.1 at a free port, trust authentication, one database.

The server binaries are PostgreSQL's own (on PATH, else Debian's /usr/lib/postgresql/<version>/bin).
PostgreSQL refuses to run as root; as root the cluster is made and run as the ``postgres`` user
(Debian's package creates it).
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path

DATABASE = "news"
USER = "newscrawl"


def server_binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def postgres_available() -> bool:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return False
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return False
    return all(server_binary(name) for name in ("initdb", "pg_ctl"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresCluster:
    def __init__(self, directory: Path):
        self.directory = directory
        self.data = directory / "data"
        self.port = _free_port()
        self.url = f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        result = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stdout[-1500:]}{result.stderr[-1500:]}")

    def init(self) -> PostgresCluster:
        self.directory.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(self.directory, entry.pw_uid, entry.pw_gid)
            self.directory.chmod(0o700)
        self._run(server_binary("initdb"), "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        self.start()
        import psycopg

        with psycopg.connect(f"postgresql://{USER}@127.0.0.1:{self.port}/postgres", autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {DATABASE}")
        return self

    def start(self) -> None:
        self._run(server_binary("pg_ctl"), "-D", str(self.data), "-w", "-l", str(self.directory / "server.log"),
                  "-o", f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self) -> None:
        self._run(server_binary("pg_ctl"), "-D", str(self.data), "-w", "-m", "immediate", "stop")

    def connect(self):
        import psycopg

        return psycopg.connect(self.url, autocommit=True)

    def reset(self) -> None:
        """Drop newscrawl's tables (each test starts from an empty database)."""
        with self.connect() as connection:
            connection.execute("DROP TABLE IF EXISTS articles, newscrawl_meta")
