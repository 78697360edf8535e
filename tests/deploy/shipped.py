"""Run a shipped deployment file's own command lines, without Docker or systemd.

There is no container engine or init system on the test machines, so the
tests read the files that ship (``deploy/Dockerfile``, ``deploy/compose.yaml``,
``deploy/ledger.service``, ``deploy/ledger.env.example``) and start exactly
their command with exactly their environment.  Only what the engine would
provide is replaced: host names (``postgres``, ``nats``) become loopback,
published ports become free ones, and the secrets an operator must supply
are generated.  The container's read-only root is emulated by a read-only
bind mount of the data directory (:func:`read_only`).
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_ports(count: int) -> int:
    """A port p with p..p+count-1 free now, below the kernel's ephemeral range.

    A range the kernel hands out itself (``bind(0)``) sits in the ephemeral
    range, where any outgoing connection -- the first server's own to
    PostgreSQL or NATS -- may take one of its ports before a later server
    binds it.  Below that range only an explicit bind can take a port.
    """
    low, _ = _ephemeral_range()
    rng = random.Random()
    for _ in range(200):
        base = rng.randrange(10_000, low - count)
        try:
            for port in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise AssertionError("no free port range")


def _ephemeral_range() -> tuple[int, int]:
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        low, high = (int(part) for part in text.split())
    except (OSError, ValueError):
        return 32768, 60999
    return low, high


def dockerfile_env() -> dict[str, str]:
    """The runtime stage's ``ENV`` (what every container starts with)."""
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    runtime = text.split(" AS runtime", 1)[1]
    env: dict[str, str] = {}
    for line in runtime.splitlines():
        if line.startswith("ENV "):
            for item in shlex.split(line[4:]):
                key, _, value = item.partition("=")
                env[key] = value
    # the image's virtualenv is ours, and its base PATH the system's
    env["PATH"] = env["PATH"].replace("/opt/ledger/bin", str(BIN))
    env["PATH"] = env["PATH"].replace("$PATH", "/usr/bin:/bin")
    return env


def env_file(path: Path) -> dict[str, str]:
    """A systemd ``EnvironmentFile``: KEY=VALUE lines, ``#`` comments."""
    env = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env


def unit_directives(path: Path) -> dict[str, str]:
    return {
        key: value
        for key, _, value in (
            line.partition("=")
            for line in path.read_text().splitlines()
            if "=" in line and not line.startswith("#")
        )
    }


VARIABLE = re.compile(r"\$\{([A-Z_]+)(?::[?-][^}]*)?\}")


def interpolate(value: str, variables: Mapping[str, str]) -> str:
    """Compose's ``${NAME:?message}`` substitution (a missing name is an error);
    ``$$`` is a literal ``$``, for the shell the command runs."""
    return VARIABLE.sub(lambda m: variables[m.group(1)], value).replace("$$", "$")


def compose_services(variables: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """compose.yaml's services, merge keys resolved and ``${...}`` substituted."""
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]

    def substitute(node: Any) -> Any:
        if isinstance(node, str):
            return interpolate(node, variables)
        if isinstance(node, list):
            return [substitute(item) for item in node]
        if isinstance(node, dict):
            return {key: substitute(item) for key, item in node.items()}
        return node

    return {name: substitute(service) for name, service in services.items()}


def operator_secrets() -> dict[str, str]:
    """What the operator puts in deploy/.env: real secrets, never the placeholders."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    key = Ed25519PrivateKey.generate().private_bytes(
        Encoding.Raw, PrivateFormat.Raw, NoEncryption()
    )
    return {
        "POSTGRES_PASSWORD": secrets.token_hex(8),
        "LEDGER_OWNER_PASSWORD": secrets.token_hex(8),
        "LEDGER_SVC_PASSWORD": secrets.token_hex(8),
        "LEDGER_REPLICATION_PASSWORD": secrets.token_hex(8),
        # NATS reads its passwords from the environment as config values: a
        # letter first (deploy/nats/users.conf)
        "LEDGER_NATS_PASSWORD": "n" + secrets.token_hex(12),
        "LEDGER_NATS_ADMIN_PASSWORD": "n" + secrets.token_hex(12),
        "NATS_ROUTE_PASSWORD": "n" + secrets.token_hex(12),
        "LEDGER_ADMIN_TOKEN": secrets.token_urlsafe(32),
        "LEDGER_SIGNING_KEY": key.hex(),
        "GRAFANA_ADMIN_PASSWORD": secrets.token_hex(8),
    }


def scratch_dir(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix))


def read_only(path: Path) -> list[str]:
    """A command prefix that runs its command with ``path`` mounted read-only.

    As root: a private mount namespace (``unshare``) with ``path`` bind-mounted
    onto itself read-only, so writes fail with ``EROFS``, as under compose's
    ``read_only: true``.  Not root: the directory loses its write bits.
    """
    if os.geteuid() != 0:
        path.chmod(0o555)
        return []
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    return [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "--",
        "sh",
        "-c",
        script,
        str(path),
    ]


def ledger_command(args: list[str]) -> list[str]:
    """The image's ``ENTRYPOINT ["ledger"]`` with a service's ``command``."""
    return [str(BIN / "ledger"), *args]


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[str]
    log: Path
    ports: dict[str, int] = field(default_factory=dict)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> int:
        """SIGTERM, as ``docker stop`` and ``systemctl stop`` send."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(60)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(10)
        return self.popen.returncode


@contextlib.contextmanager
def started(
    name: str,
    command: list[str],
    env: Mapping[str, str],
    cwd: Path,
    logs: Path,
    prefix: tuple[str, ...] = (),
) -> Iterator[Process]:
    """``command`` with only ``env`` (plus PATH), stopped on the way out."""
    log = logs / f"{name}.log"
    base = {"PATH": f"{BIN}:/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    with log.open("w") as out:
        popen = subprocess.Popen(
            [*prefix, *command],
            env={**base, **env},
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    process = Process(name, popen, log)
    try:
        yield process
    finally:
        process.stop()


def wait_serving(process: Process, target: str, timeout: float = 120) -> None:
    """Until ``target`` answers SERVING; fails with the log if the process exits."""
    from services.runtime.health_probe import check

    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        assert process.popen.poll() is None, (
            f"{process.name} exited with {process.popen.returncode}:\n{process.output()}"
        )
        ok, seen = check(target, timeout=1.0)
        if ok:
            return
        time.sleep(0.3)
    raise AssertionError(f"{process.name} never SERVING ({seen}):\n{process.output()}")


def wait_http(process: Process, url: str, timeout: float = 120) -> str:
    """The body of ``url`` once it answers 200; fails with the log if the process exits."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.popen.poll() is None, (
            f"{process.name} exited with {process.popen.returncode}:\n{process.output()}"
        )
        with (
            contextlib.suppress(OSError, urllib.error.URLError),
            urllib.request.urlopen(url, timeout=2) as answer,
        ):
            if answer.status == 200:
                return str(answer.read().decode())
        time.sleep(0.3)
    raise AssertionError(f"{url} never answered 200:\n{process.output()}")


def healthcheck_command(test: list[str]) -> list[str]:
    """A compose ``healthcheck.test`` as the command the engine runs."""
    kind, *rest = test
    if kind == "CMD-SHELL":
        return ["sh", "-c", rest[0]]
    assert kind == "CMD", test
    return rest


def wait_healthy(
    process: Process, test: list[str], env: Mapping[str, str], timeout: float = 120
) -> None:
    """Until the health check passes, as compose would see it turn healthy."""
    command = healthcheck_command(test)
    deadline = time.monotonic() + timeout
    name = process.name
    while True:
        assert process.popen.poll() is None, (
            f"{name} exited with {process.popen.returncode}:\n{process.output()}"
        )
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=30, check=False
        )
        if done.returncode == 0:
            return
        assert time.monotonic() < deadline, (
            f"{name}'s health check never passed: {done.stdout}{done.stderr}\n"
            f"{process.output()}"
        )
        time.sleep(0.5)
