"""Every deployment that ships starts with its own command and environment.

compose's services run as the image's uid on a data directory it cannot
write (the container's ``read_only: true`` root); the systemd unit runs its
``ExecStart`` with ``ledger.env.example`` (two workers, metrics on); and
``deploy/local/up.sh`` runs with ``LEDGER_METRICS_PORT`` exported and
against a missing database.  Each server must reach SERVING.  See
:mod:`tests.deploy.shipped` for what is substituted and why.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets as random_secrets
import shutil
import subprocess
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
import yaml

from tests.deploy.shipped import (
    BIN,
    DEPLOY,
    compose_services,
    dockerfile_env,
    env_file,
    free_port,
    free_ports,
    ledger_command,
    operator_secrets,
    read_only,
    scratch_dir,
    started,
    unit_directives,
    wait_healthy,
    wait_http,
    wait_serving,
)
from tests.support.scratch_postgres import ScratchPostgres, scratch_postgres

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
NATS = "127.0.0.1:4222"


@dataclass
class Cluster:
    """compose's ``postgres`` and ``postgres-replica``, as started by its files."""

    primary: ScratchPostgres
    replica_port: int
    variables: dict[str, str]


def _as_postgres(pg: ScratchPostgres) -> list[str]:
    """The replica's ``user: postgres`` (the scratch cluster's own user here)."""
    if pg.user is None:
        return []
    entry = pwd.getpwnam(pg.user)
    return [
        "setpriv",
        f"--reuid={entry.pw_uid}",
        f"--regid={entry.pw_gid}",
        "--init-groups",
        "--",
    ]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    """A PostgreSQL of our own, set up by compose's ``initdb.sh``, and its standby
    started by the ``postgres-replica`` service's own command.

    Its own, because ``initdb.sh`` creates cluster-wide roles (``ledger_owner``,
    ``ledger_svc``, ``ledger_replicator``) that the shared server must not get.
    """
    variables = operator_secrets()
    services = compose_services(variables)
    path = f"{BIN}:{os.environ['PATH']}"
    with scratch_postgres() as pg:
        path = f"{pg.bin}:{path}"
        subprocess.run(
            ["sh", str(DEPLOY / "compose" / "initdb.sh")],
            env={
                "PATH": path,
                "POSTGRES_USER": "postgres",
                "PGHOST": "127.0.0.1",
                "PGPORT": str(pg.port),
                "PGDATA": str(pg.data),
                **services["postgres"]["environment"],
            },
            check=True,
            capture_output=True,
            timeout=60,
        )
        replica = services["postgres-replica"]
        volume = pg.root / "pgreplica"  # the service's volume, the postgres user's
        volume.mkdir()
        shutil.chown(volume, pg.user, pg.user) if pg.user else None
        port = free_port()
        env = {
            **replica["environment"],
            "PATH": path,
            "PGDATA": replica["environment"]["PGDATA"].replace(
                "/var/lib/postgresql/data", str(volume)
            ),
            "REPLICATE_FROM_HOST": "127.0.0.1",
            "REPLICATE_FROM_PORT": str(pg.port),
            "PGPORT": str(port),  # the standby's own port (its container's 5432)
        }
        logs = tmp_path_factory.mktemp("replica")
        with started(
            "postgres-replica",
            replica["command"],
            env,
            volume,
            logs,
            tuple(_as_postgres(pg)),
        ) as standby:
            check = {"PATH": path, "PGHOST": "127.0.0.1", "PGPORT": str(port)}
            wait_healthy(standby, replica["healthcheck"]["test"], check)
            yield Cluster(pg, port, variables)


def _on_loopback(env: dict[str, str], cluster: Cluster) -> dict[str, str]:
    """compose's service names resolved as its network would, to loopback."""
    return {
        key: value.replace("@postgres:5432/", f"@127.0.0.1:{cluster.primary.port}/")
        .replace("@postgres-replica:5432/", f"@127.0.0.1:{cluster.replica_port}/")
        .replace(COMPOSE_NATS, f"nats://{NATS}")
        for key, value in env.items()
    }


COMPOSE_NATS = "nats://nats-1:4222,nats://nats-2:4222,nats://nats-3:4222"
"""The servers' LEDGER_NATS_URL in compose: its three NATS nodes."""


def test_compose_nats_cluster_starts_and_its_admin_makes_the_stream(tmp_path) -> None:
    """compose's three NATS nodes with their command and environment (nats.conf
    and users.conf as mounted), each node on loopback ports of its own; then
    ``nats-setup`` as written: the stream in 3 replicas.  The servers' user
    may not touch the stream; the placeholder never gets that far."""
    import asyncio

    import nats

    services = compose_services(operator_secrets())
    base = free_ports(9)
    client = {i: base + i - 1 for i in (1, 2, 3)}
    route = {i: base + 2 + i for i in (1, 2, 3)}
    monitor = {i: base + 5 + i for i in (1, 2, 3)}
    nats_server = shutil.which("nats-server") or "/usr/sbin/nats-server"

    def on_loopback(i: int, value: str) -> str:
        value = value.replace("0.0.0.0:4222", f"127.0.0.1:{client[i]}")
        value = value.replace("0.0.0.0:6222", f"127.0.0.1:{route[i]}")
        value = value.replace("0.0.0.0:8222", f"127.0.0.1:{monitor[i]}")
        for j in (1, 2, 3):
            value = value.replace(f"@nats-{j}:6222", f"@127.0.0.1:{route[j]}")
            value = value.replace(
                f"nats://nats-{j}:4222", f"nats://127.0.0.1:{client[j]}"
            )
        return value

    conf = Path(str(DEPLOY / "nats"))
    nodes = []
    with contextlib.ExitStack() as stack:
        for i in (1, 2, 3):
            service = services[f"nats-{i}"]
            assert "./nats:/etc/nats:ro" in service["volumes"]
            env = {k: on_loopback(i, v) for k, v in service["environment"].items()}
            env["NATS_STORE_DIR"] = str(tmp_path / f"nats-{i}")  # its volume
            command = [nats_server, *service["command"]]
            command[-1] = command[-1].replace("/etc/nats", str(conf))
            nodes.append(
                stack.enter_context(
                    started(f"nats-{i}", command, env, tmp_path, tmp_path)
                )
            )
        for i in (1, 2, 3):
            check = [
                part.replace(":8222/", f":{monitor[i]}/")
                for part in services[f"nats-{i}"]["healthcheck"]["test"]
            ]
            wait_healthy(nodes[i - 1], check, {"PATH": os.environ["PATH"]})
        setup = services["nats-setup"]
        env = {k: on_loopback(1, v) for k, v in setup["environment"].items()}
        done = subprocess.run(
            ledger_command(setup["command"]),
            env={"PATH": os.environ["PATH"], **env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "3 replicas" in done.stdout

        servers = services["ledger-1"]["environment"]
        url = on_loopback(1, servers["LEDGER_NATS_URL"]).split(",")

        async def as_servers() -> tuple[int, str]:
            nc = await nats.connect(
                url,
                user=servers["LEDGER_NATS_USER"],
                password=servers["LEDGER_NATS_PASSWORD"],
            )
            try:
                js = nc.jetstream(timeout=2)
                info = await js.stream_info("LEDGER_GAMES")  # allowed: looking it up
                with pytest.raises(Exception):  # noqa: B017 - a permissions violation
                    await js.delete_stream("LEDGER_GAMES")
                return info.config.num_replicas or 0, str(nc.last_error)
            finally:
                await nc.close()

        replicas, refused = asyncio.run(as_servers())
        assert replicas == 3
        assert "permissions violation" in refused


def _metrics(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        return str(r.read().decode())


def _check(service: dict, old: str, new: str) -> list[str]:
    """The service's health check, with the port the test gave it."""
    return [part.replace(old, new) for part in service["healthcheck"]["test"]]


def test_compose_services_start_on_a_read_only_root(cluster, tmp_path) -> None:
    services = compose_services(cluster.variables)
    image_env = dockerfile_env()
    root = scratch_dir("ledger-ro-root-")
    ro = tuple(read_only(root))
    probe = subprocess.run(
        [*ro, "touch", str(root / "x")], capture_output=True, check=False
    )
    assert probe.returncode != 0 and not (root / "x").exists()  # the emulation holds
    image_env["LEDGER_DATA_DIR"] = str(root)  # the image's /var/lib/ledger
    image_env["HOME"] = str(root)

    def env_of(name: str) -> dict[str, str]:
        return _on_loopback({**image_env, **services[name]["environment"]}, cluster)

    migrate = subprocess.run(
        [*ro, *ledger_command(services["migrate"]["command"])],
        env=env_of("migrate"),
        cwd=root,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr

    servers = [
        n
        for n, s in services.items()
        if s.get("command", ["serve"]) == ["serve"]
        and s.get("image") == "game-ledger:latest"
    ]
    assert servers == ["ledger-1", "ledger-2", "ledger-3"]
    assert env_of("ledger-2") == env_of("ledger-1") == env_of("ledger-3")
    grpc_port, metrics_port = free_port(), free_port()
    env = env_of("ledger-1")
    assert env["LEDGER_LISTEN"] == "0.0.0.0:50051"
    assert f":{cluster.replica_port}/" in env["LEDGER_READ_DATABASE_URL"]
    env["LEDGER_LISTEN"] = f"127.0.0.1:{grpc_port}"
    env["LEDGER_METRICS_PORT"] = str(metrics_port)
    with started(
        "ledger-1", ledger_command(["serve"]), env, root, tmp_path, ro
    ) as server:
        wait_serving(server, f"127.0.0.1:{grpc_port}")
        check = _check(services["ledger-1"], ":50051", f":{grpc_port}")
        wait_healthy(server, check, env)
        assert "ledger_database_up 1.0" in _metrics(metrics_port)

        projector_metrics = free_port()
        env = {**env_of("projector"), "LEDGER_METRICS_PORT": str(projector_metrics)}
        command = ledger_command(services["projector"]["command"])
        with started("projector", command, env, root, tmp_path, ro) as projector:
            check = _check(services["projector"], ":9464/", f":{projector_metrics}/")
            wait_healthy(projector, check, env)
            assert projector.popen.poll() is None, projector.output()
            assert projector.stop() == 0, projector.output()

        http = free_port()
        command = ledger_command(services["dashboard"]["command"])
        assert command[-2:] == ["--http", "0.0.0.0:8080"]
        command[-1] = f"127.0.0.1:{http}"
        env = env_of("dashboard")
        with started("dashboard", command, env, root, tmp_path, ro) as dashboard:
            check = _check(services["dashboard"], ":8080/", f":{http}/")
            wait_healthy(dashboard, check, env)
            wait_http(dashboard, f"http://127.0.0.1:{http}/")
            assert dashboard.stop() == 0, dashboard.output()
        assert server.stop() == 0, server.output()
    assert list(root.iterdir()) == []
    shutil.rmtree(root)


def test_systemd_unit_with_the_example_environment_serves(cluster, tmp_path) -> None:
    pg = cluster.primary
    unit = unit_directives(DEPLOY / "ledger.service")
    example = env_file(Path(DEPLOY / "ledger.env.example"))
    home = tmp_path / "var-lib-ledger"  # the unit's ReadWritePaths
    home.mkdir()
    placeholders = operator_secrets()
    env = {}
    # the deployment's one signing key, made once and copied to every host
    key_file = tmp_path / "etc-ledger-signing-key"
    key_file.write_text(placeholders["LEDGER_SIGNING_KEY"] + "\n")
    key_file.chmod(0o600)
    assert example["LEDGER_SIGNING_KEY_FILE"] == "/etc/ledger/signing-key"
    for key, value in example.items():  # what the operator edits: secrets, where
        value = value.replace("127.0.0.1:5432", f"127.0.0.1:{pg.port}")
        value = value.replace(unit["WorkingDirectory"], str(home))
        value = value.replace("/etc/ledger/signing-key", str(key_file))
        if key == "LEDGER_ADMIN_TOKEN":
            value = placeholders["LEDGER_ADMIN_TOKEN"]
        env[key] = value.replace("CHANGE-ME", placeholders["LEDGER_SVC_PASSWORD"])
    assert int(env["LEDGER_WORKERS"]) > 1 and env["LEDGER_METRICS_PORT"]
    workers = int(env["LEDGER_WORKERS"])
    metrics = free_ports(workers + 1)
    grpc_port = free_port()
    env["LEDGER_METRICS_PORT"] = str(metrics)
    env["LEDGER_LISTEN"] = f"127.0.0.1:{grpc_port}"
    env["LEDGER_HTTP_LISTEN"] = f"127.0.0.1:{free_port()}"  # its dashboard
    env["HOME"] = str(home)  # systemd's, for User=
    owner = env["LEDGER_DATABASE_URL"].replace("ledger_svc:", "ledger_owner:")
    setup = subprocess.run(  # the setup the example's comment names, as the owner
        [str(BIN / "ledger"), "db", "setup", "--service-role", "ledger_svc"],
        env={"PATH": os.environ["PATH"], "LEDGER_DATABASE_URL": owner},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert setup.returncode == 0, setup.stdout + setup.stderr
    exec_start = unit["ExecStart"].split()
    assert exec_start[0] == "/opt/ledger/.venv/bin/ledger"
    command = [str(BIN / "ledger"), *exec_start[1:]]
    cwd = Path(unit["WorkingDirectory"].replace("/var/lib/ledger", str(home)))
    with started("systemd", command, env, cwd, tmp_path) as server:
        wait_serving(server, f"127.0.0.1:{grpc_port}")
        assert not (home / "signing-key").exists()  # the shared key, none generated
        for port in range(metrics, metrics + workers + 1):  # supervisor, each worker
            wait_http(server, f"http://127.0.0.1:{port}/metrics")
        assert server.stop() == 0, server.output()


def _up(run: Path, base: int, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(DEPLOY / "local" / "up.sh"), str(run), str(base)],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def _local_env(url: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
        "LEDGER_DATABASE_URL": url,
        "LEDGER_BIN": str(BIN / "ledger"),
        "PYTHON": str(BIN / "python"),
        "LEDGER_POOL_SIZE": "3",
        "LEDGER_LOCAL_SERVERS": "2",
    }


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone too
        return stat.read().split()[2] != "Z"


def test_local_up_with_metrics_exported_serves_every_process(server_url, tmp_path):
    from tests.support.database import scratch_database

    run = tmp_path / "run"
    with scratch_database(server_url, "ledger_up_metrics") as url:
        metrics = free_ports(3)
        env = {**_local_env(url), "LEDGER_METRICS_PORT": str(metrics)}
        base = free_ports(5)
        try:
            up = _up(run, base, env)
            assert up.returncode == 0, up.stdout + up.stderr
            assert up.stdout.count("SERVING") == 2
            for port in (metrics, metrics + 1):  # each server's
                assert "ledger_database_up 1.0" in _metrics(port)
            assert "ledger_projection" in _metrics(metrics + 2)  # the worker's
        finally:
            subprocess.run(
                [str(DEPLOY / "local" / "down.sh"), str(run)], timeout=60, check=False
            )


def test_local_up_against_a_missing_database_says_so_and_cleans_up(
    server_url, tmp_path
):
    run = tmp_path / "run"
    missing = server_url.rsplit("/", 1)[0] + "/ledger_no_such_database"
    with psycopg.connect(server_url) as conn:
        assert conn.execute(
            "SELECT count(*) FROM pg_database WHERE datname = 'ledger_no_such_database'"
        ).fetchone() == (0,)
    up = _up(run, free_ports(5), _local_env(missing))
    assert up.returncode != 0
    lines = up.stderr.strip().splitlines()
    assert len(lines) == 1, up.stderr
    assert "ledger_no_such_database" in lines[0] and "Traceback" not in up.stderr
    (nats_pid,) = map(int, re.findall(r"JetStream, pid (\d+)", up.stdout))
    assert not _alive(nats_pid), "up.sh left nats-server running"
    assert not list(run.glob("*.pid")), "up.sh left pid files behind"


K8S = DEPLOY / "k8s"


def _k8s_resources() -> dict[tuple[str, str], dict]:
    found = {}
    for path in K8S.glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


def _k8s_expand(text: str, defined: dict[str, str]) -> str:
    """Kubernetes' ``$(VAR)`` expansion (its ``expansion.Expand``): ``$$`` is
    ``$``, ``$(NAME)`` a variable defined so far, or left as written if none
    is; any other ``$`` stays."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "$" and i + 1 < len(text):
            following = text[i + 1]
            if following == "$":
                out.append("$")
                i += 2
                continue
            if following == "(":
                end = text.find(")", i + 2)
                if end != -1:
                    name = text[i + 2 : end]
                    out.append(defined.get(name, f"$({name})"))
                    i = end + 1
                    continue
            out.append("$")
            i += 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _k8s_env(
    container: dict,
    pod: str,
    resources: dict[tuple[str, str], dict],
    secrets: dict[tuple[str, str], str],
) -> dict[str, str]:
    """A container's ``env`` as its pod named ``pod`` gets it: references
    resolved (Secrets from ``secrets``), each value expanded in order."""
    env: dict[str, str] = {}
    for item in container.get("env", []):
        source = item.get("valueFrom")
        if source is None:
            value = _k8s_expand(item.get("value", ""), env)
        elif "fieldRef" in source:
            assert source["fieldRef"]["fieldPath"] == "metadata.name", source
            value = pod
        elif "secretKeyRef" in source:
            ref = source["secretKeyRef"]
            value = secrets[(ref["name"], ref["key"])]
        else:
            ref = source["configMapKeyRef"]
            value = resources[("ConfigMap", ref["name"])]["data"][ref["key"]]
        env[item["name"]] = value
    return env


def _k8s_command(container: dict, env: dict[str, str]) -> list[str]:
    """A container's ``command`` and ``args``, each expanded from its env."""
    parts = [*container.get("command", []), *container.get("args", [])]
    return [_k8s_expand(part, env) for part in parts]


def _k8s_secrets(
    resources: dict[tuple[str, str], dict], replaced: bool
) -> dict[tuple[str, str], str]:
    """secrets.yaml's values, each CHANGE-ME password replaced by a real one
    (as NATS takes it: a letter first) as the operator must, or as shipped.
    The database URLs stay as they are: nothing here connects with them."""
    from services.runtime.placeholders import PLACEHOLDER

    values = {}
    for (kind, name), doc in resources.items():
        if kind == "Secret":
            for key, value in doc["stringData"].items():
                if replaced and PLACEHOLDER.search(value) and "://" not in value:
                    value = "n" + random_secrets.token_hex(24)
                values[(name, key)] = value
    return values


def test_k8s_nats_statefulset_starts_and_its_job_makes_the_stream(tmp_path) -> None:
    """The NATS StatefulSet's three pods, each with the container's command
    and its environment as Kubernetes builds it (the pod's name, the Secrets,
    ``$(NATS_ROUTE_PASSWORD)`` expanded in the routes), the ConfigMap's
    nats.conf and users.conf, each pod on loopback ports of its own; then the
    ``nats-setup`` Job as written: the stream in 3 replicas, one on each pod.
    The servers' user (ledger-config's, with its Secret) may not delete it."""
    import asyncio

    import nats

    res = _k8s_resources()
    secrets = _k8s_secrets(res, replaced=True)
    statefulset = res[("StatefulSet", "nats")]
    spec = statefulset["spec"]
    pod = spec["template"]["spec"]
    (container,) = pod["containers"]
    (check,) = pod["initContainers"]
    namespace = statefulset["metadata"]["namespace"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    pods = [f"nats-{i}" for i in range(spec["replicas"])]
    assert len(pods) == 3
    base = free_ports(9)
    client = {name: base + i for i, name in enumerate(pods)}
    route = {name: base + 3 + i for i, name in enumerate(pods)}
    monitor = {name: base + 6 + i for i, name in enumerate(pods)}
    nats_server = shutil.which("nats-server") or "/usr/sbin/nats-server"

    def on_loopback(name: str, value: str) -> str:
        """The pod's listen addresses and every pod's DNS name, on loopback."""
        value = value.replace(f"0.0.0.0:{ports['client']}", f"127.0.0.1:{client[name]}")
        value = value.replace(f"0.0.0.0:{ports['cluster']}", f"127.0.0.1:{route[name]}")
        value = value.replace(
            f"0.0.0.0:{ports['monitor']}", f"127.0.0.1:{monitor[name]}"
        )
        for other in pods:
            host = f"{other}.{spec['serviceName']}.{namespace}.svc"
            value = value.replace(
                f"{host}:{ports['cluster']}", f"127.0.0.1:{route[other]}"
            )
            value = value.replace(
                f"{host}:{ports['client']}", f"127.0.0.1:{client[other]}"
            )
        return value

    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    config = tmp_path / "etc-nats"  # the ConfigMap's volume
    config.mkdir()
    for name, text in res[("ConfigMap", "nats-config")]["data"].items():
        (config / name).write_text(text)
    nodes = []
    with contextlib.ExitStack() as stack:
        for name in pods:
            env = _k8s_env(check, name, res, secrets)
            init = subprocess.run(
                _k8s_command(check, env),
                env={"PATH": os.environ["PATH"], **env},
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
            assert init.returncode == 0, init.stderr
            env = _k8s_env(container, name, res, secrets)
            assert env["NATS_SERVER_NAME"] == name
            assert not [k for k, v in env.items() if "$(" in v]  # all expanded
            env = {k: on_loopback(name, v) for k, v in env.items()}
            assert env["NATS_STORE_DIR"] == mounts["data"]
            env["NATS_STORE_DIR"] = str(tmp_path / name)  # its claim
            # no command: the image's entrypoint puts nats-server before flags
            assert "command" not in container
            command = [nats_server, *_k8s_command(container, env)]
            command = [a.replace(mounts["config"], str(config)) for a in command]
            nodes.append(
                stack.enter_context(started(name, command, env, tmp_path, tmp_path))
            )
        for name, node in zip(pods, nodes, strict=True):
            for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                get = container[probe]["httpGet"]
                assert get["port"] == "monitor"
                wait_http(node, f"http://127.0.0.1:{monitor[name]}{get['path']}")

        (job,) = res[("Job", "nats-setup")]["spec"]["template"]["spec"]["containers"]
        env = {
            k: on_loopback(pods[0], v)
            for k, v in _k8s_env(job, "", res, secrets).items()
        }
        done = subprocess.run(
            ledger_command(_k8s_command(job, env)),
            env={"PATH": os.environ["PATH"], **env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "3 replicas" in done.stdout

        servers = res[("StatefulSet", "ledger")]["spec"]["template"]["spec"]
        server_env = _k8s_env(servers["containers"][0], "ledger-0", res, secrets)
        server_env.update(
            {k: v for k, v in res[("ConfigMap", "ledger-config")]["data"].items()}
        )
        url = on_loopback(pods[0], server_env["LEDGER_NATS_URL"]).split(",")
        assert url == [f"nats://127.0.0.1:{client[name]}" for name in pods]

        async def as_servers() -> tuple[set[str], str]:
            nc = await nats.connect(
                url,
                user=server_env["LEDGER_NATS_USER"],
                password=server_env["LEDGER_NATS_PASSWORD"],
            )
            try:
                js = nc.jetstream(timeout=2)
                info = await js.stream_info("LEDGER_GAMES")  # allowed: looking it up
                with pytest.raises(Exception):  # noqa: B017 - a permissions violation
                    await js.delete_stream("LEDGER_GAMES")
                assert info.config.num_replicas == 3
                assert info.cluster is not None
                peers = {info.cluster.leader or ""}
                peers |= {r.name or "" for r in info.cluster.replicas or []}
                return peers, str(nc.last_error)
            finally:
                await nc.close()

        peers, refused = asyncio.run(as_servers())
        assert peers == set(pods)  # one replica on each pod, named by fieldRef
        assert "permissions violation" in refused


def test_k8s_nats_pods_and_job_refuse_the_shipped_placeholders(tmp_path) -> None:
    """secrets.yaml applied unchanged: each NATS pod's init container stops
    before nats-server starts, and the setup Job stops before connecting,
    each in one line naming the variable, never the value."""
    res = _k8s_resources()
    shipped = _k8s_secrets(res, replaced=False)
    real = _k8s_secrets(res, replaced=True)
    pod = res[("StatefulSet", "nats")]["spec"]["template"]["spec"]
    (check,) = pod["initContainers"]
    for name in (
        "NATS_ROUTE_PASSWORD",
        "LEDGER_NATS_PASSWORD",
        "LEDGER_NATS_ADMIN_PASSWORD",
    ):
        # only this one left as shipped
        ref = next(e for e in check["env"] if e["name"] == name)["valueFrom"]
        key = (ref["secretKeyRef"]["name"], ref["secretKeyRef"]["key"])
        env = _k8s_env(check, "nats-0", res, {**real, key: shipped[key]})
        done = subprocess.run(
            _k8s_command(check, env),
            env={"PATH": os.environ["PATH"], **env},
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode != 0
        said = f"{name} is still the placeholder from the deployment files: "
        assert done.stderr.strip().splitlines() == [said + "set a real secret"]
    (job,) = res[("Job", "nats-setup")]["spec"]["template"]["spec"]["containers"]
    env = _k8s_env(job, "", res, shipped)
    assert NATS not in env["LEDGER_NATS_URL"]  # the pods' names: no connection made
    done = subprocess.run(
        ledger_command(_k8s_command(job, env)),
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "LEDGER_NATS_ADMIN_PASSWORD" in lines[0], done.stderr
    assert "placeholder" in lines[0] and "CHANGE-ME" not in done.stderr
