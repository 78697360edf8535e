"""A PostgreSQL server of the test's own, for tests that stop or restart it.

The shared server on 5432 must never be restarted, so fault tests run their
own: ``initdb`` into a scratch directory and ``pg_ctl`` on a free TCP port.
The binaries are the system's PostgreSQL 15 when installed, else the ones
the ``pgserver`` wheel ships.  PostgreSQL refuses to run as root, so as
root the server runs as the ``postgres`` system user (or ``pgserver``'s).

``fsync=off`` keeps it quick; commits are still written to the kernel
before they are acknowledged, so stopping PostgreSQL (even ``immediate``,
a crash) loses nothing acknowledged: only a machine crash would.

:meth:`ScratchPostgres.paused` makes it hang instead of stop: every process
of the cluster is sent ``SIGSTOP`` (``SIGCONT`` at the end), so it closes
nothing and answers nothing while its kernel still accepts connections and
acknowledges packets.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
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

    @contextlib.contextmanager
    def paused(self) -> Iterator[list[int]]:
        """The whole cluster stopped (``SIGSTOP``) for the block, then continued.

        The postmaster first, so it starts no process meanwhile, then every
        process it has started (backends, background workers); yields their
        pids.  What a client sees is a server that hangs: connections stay
        open, the kernel accepts new ones, and nothing is ever answered.
        """
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        stopped = [postmaster]
        try:
            os.kill(postmaster, signal.SIGSTOP)
            deadline = time.monotonic() + 10
            while _state(postmaster) != "T":  # stopped: it forks nothing more
                assert time.monotonic() < deadline, "the postmaster did not stop"
                time.sleep(0.01)
            for pid in _children(postmaster):
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            yield list(stopped)
        finally:
            for pid in reversed(stopped):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def _stat(pid: int) -> list[str]:
    """``/proc/PID/stat`` after the command name: state, parent pid, ..."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text.rpartition(")")[2].split()


def _state(pid: int) -> str:
    return _stat(pid)[0]


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (PostgreSQL's are all direct)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int(_stat(int(entry.name))[1]) == parent:
                    found.append(int(entry.name))
    return sorted(found)


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
