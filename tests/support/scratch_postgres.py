"""A PostgreSQL server of the test's own, for tests that stop or restart it.

The shared server on 5432 must never be restarted, so fault tests run their
own: ``initdb`` into a scratch directory and ``pg_ctl`` on a free TCP port.
The binaries are the system's PostgreSQL 15 when installed, else the ones
the ``pgserver`` wheel ships.  PostgreSQL refuses to run as root, so as
root the server runs as the ``postgres`` system user (or ``pgserver``'s).

``fsync=off`` keeps it quick; commits are still written to the kernel
before they are acknowledged, so stopping PostgreSQL (even ``immediate``,
a crash) loses nothing acknowledged: only a machine crash would.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

SYSTEM_BIN = Path("/usr/lib/postgresql/15/bin")


def _bin_dir() -> Path:
    if (SYSTEM_BIN / "pg_ctl").exists():
        return SYSTEM_BIN
    from pgserver._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def _run_as() -> str | None:
    """The system user to run PostgreSQL as (``None``: ourselves, not root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "pgserver"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    from pgserver.utils import ensure_user_exists

    ensure_user_exists("pgserver")
    return "pgserver"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ScratchPostgres:
    """One throwaway cluster: :meth:`start`, :meth:`stop`, :meth:`restart`."""

    extra_options = ""
    """More ``-c name=value`` for the server (e.g. WAL archiving), with a leading space."""

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.user = _run_as()
        self._make_root("ledger-faults-pg-")
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        )

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _make_root(self, prefix: str) -> None:
        """A scratch directory on a free port, owned by the cluster's user."""
        self.root = Path(tempfile.mkdtemp(prefix=prefix))
        self.data = self.root / "data"
        self.port = free_port()
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        result = subprocess.run(
            command,
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=self.root,
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"{tool} failed: {result.stderr or result.stdout}\n{self.log()}"
            )

    def log(self) -> str:
        path = self.root / "server.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 "
            "-c unix_socket_directories='' -c fsync=off -c full_page_writes=off "
            "-c max_connections=200"
            f"{self.extra_options}"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """``fast``: an administrator's stop; ``immediate``: a crash."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def is_running(self) -> bool:
        command = [str(self.bin / "pg_ctl"), "-D", str(self.data), "status"]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, check=False, capture_output=True).returncode == 0

    def start_if_stopped(self) -> None:
        if not self.is_running():
            self.start()

    def restart(self, mode: str = "fast") -> None:
        self.stop(mode)
        self.start()

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def scratch_postgres() -> Iterator[ScratchPostgres]:
    """A running server of its own, removed afterwards."""
    server = ScratchPostgres()
    try:
        server.start()
        yield server
    finally:
        server.close()


class ScratchReplica(ScratchPostgres):
    """A hot standby of ``primary``: ``pg_basebackup -R`` into a scratch
    directory (streaming replication, ``standby.signal``), on its own free port."""

    def __init__(self, primary: ScratchPostgres) -> None:
        self.bin = primary.bin
        self.user = primary.user
        self._make_root("ledger-replica-pg-")
        self._run(
            "pg_basebackup",
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "postgres",
            "-D",
            str(self.data),
            "-R",
            "-X",
            "stream",
            "--no-sync",
        )


@contextlib.contextmanager
def scratch_primary_and_replica() -> Iterator[tuple[ScratchPostgres, ScratchPostgres]]:
    """A primary of its own and a streaming replica of it, both removed afterwards."""
    with scratch_postgres() as primary:
        replica = ScratchReplica(primary)
        try:
            replica.start()
            yield primary, replica
        finally:
            replica.close()
