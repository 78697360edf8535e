"""Placeholder secrets are refused; every compose service has a health check that
its dependants wait on; the image builds from pinned versions only.

The health checks of our own image (servers, projector, dashboard) and the
streaming replica's command are *run* by
``tests/deploy/test_shipped_deployments_start.py``; this module checks their
shape and the secrets.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pydantic import SecretStr, ValidationError

from services.runtime.settings import Settings
from tests.deploy.shipped import DEPLOY, compose_services, operator_secrets

K8S_SECRETS = DEPLOY / "k8s" / "secrets.yaml"


def _shipped_placeholders() -> dict[str, str]:
    service = next(
        doc
        for doc in yaml.safe_load_all(K8S_SECRETS.read_text())
        if doc["metadata"]["name"] == "ledger-service"
    )
    return dict(service["stringData"])


@pytest.mark.parametrize(
    ("variable", "key"),
    [
        ("LEDGER_ADMIN_TOKEN", "admin-token"),
        ("LEDGER_SIGNING_KEY", "signing-key"),
        ("LEDGER_DATABASE_URL", "database-url"),
        ("LEDGER_READ_DATABASE_URL", "read-database-url"),
        ("LEDGER_NATS_PASSWORD", "nats-password"),
    ],
)
def test_a_server_refuses_each_placeholder_from_the_k8s_secrets(
    variable: str, key: str, tmp_path: Path
) -> None:
    value = _shipped_placeholders()[key]
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
        "LEDGER_DATA_DIR": str(tmp_path),
        variable: value,
    }
    ledger = Path(sys.executable).with_name("ledger")
    for command in (["serve"], ["project"], ["dashboard"]):
        done = subprocess.run(
            [str(ledger), *command],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode != 0
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and variable in lines[0], done.stderr
        assert "placeholder" in lines[0] and value not in lines[0]
    assert not list(tmp_path.iterdir())  # refused before anything was written


def test_the_placeholders_of_the_env_example_are_refused_and_real_ones_pass() -> None:
    from tests.deploy.shipped import env_file

    example = env_file(DEPLOY / "ledger.env.example")
    with pytest.raises(ValidationError, match="LEDGER_ADMIN_TOKEN"):
        Settings(admin_token=SecretStr(example["LEDGER_ADMIN_TOKEN"]))
    with pytest.raises(ValidationError, match="LEDGER_DATABASE_URL"):
        Settings(database_url=example["LEDGER_DATABASE_URL"])
    real = operator_secrets()
    settings = Settings(
        admin_token=SecretStr(real["LEDGER_ADMIN_TOKEN"]),
        signing_key=SecretStr(real["LEDGER_SIGNING_KEY"]),
        database_url="postgresql://ledger_svc:s3cret@db:5432/ledger",
    )
    assert settings.admin_token is not None


def test_every_compose_service_has_a_health_check_that_dependants_wait_on() -> None:
    services = compose_services(operator_secrets())
    once = ("migrate", "nats-setup")  # run once; dependants wait for them to complete
    for name, service in services.items():
        if name in once:
            assert service["restart"] == "no"
            continue
        check = service.get("healthcheck")
        assert check and not check.get("disable") and check["test"], name
        for dependency, how in service.get("depends_on", {}).items():
            wanted = (
                "service_completed_successfully"
                if dependency in once
                else "service_healthy"
            )
            assert how["condition"] == wanted, (name, dependency)
    ledger = [n for n, s in services.items() if s.get("image") == "game-ledger:latest"]
    for name in ledger:
        if name not in once:
            assert "migrate" in services[name]["depends_on"], name


def test_compose_has_a_streaming_replica_that_the_read_side_uses() -> None:
    services = compose_services(operator_secrets())
    replica = services["postgres-replica"]
    assert "pg_basebackup" in " ".join(replica["command"])
    assert replica["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("ledger-1", "dashboard"):
        env = services[name]["environment"]
        assert "@postgres-replica:5432/" in env["LEDGER_READ_DATABASE_URL"], name
        assert services[name]["depends_on"]["postgres-replica"] == {
            "condition": "service_healthy"
        }


def _pins_tool():
    """``deploy/pins.py``, which writes ``deploy/constraints.txt``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pins", DEPLOY / "pins.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_image_installs_only_pinned_versions() -> None:
    pins_tool = _pins_tool()
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "PIP_CONSTRAINT=/src/deploy/constraints.txt" in dockerfile
    assert "COPY deploy/constraints.txt" in dockerfile
    assert "--upgrade pip" not in dockerfile  # pip too comes from the pins
    pinned = pins_tool.read(DEPLOY / "constraints.txt")
    runtime = pins_tool.runtime_pins()
    assert {n: pinned.get(n) for n in runtime} == runtime, (
        "regenerate: python deploy/pins.py > deploy/constraints.txt"
    )
    assert set(pinned) == set(runtime) | set(pins_tool.BUILD_TOOLS)


def test_the_projector_health_page_follows_its_database(server_url: str) -> None:
    import urllib.error
    import urllib.request

    from services.runtime.metrics_endpoint import database_health, serve_metrics
    from tests.deploy.shipped import free_port

    def status(port: int) -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz") as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return exc.code

    up, down, none = free_port(), free_port(), free_port()
    serve_metrics(up, database_health(server_url))
    serve_metrics(
        down, database_health(f"postgresql://postgres@127.0.0.1:{free_port()}/x")
    )
    serve_metrics(none)
    assert (status(up), status(down), status(none)) == (200, 503, 404)


def test_a_placeholder_nats_password_is_refused_in_a_url_too() -> None:
    """``nats://user:CHANGE-ME@host`` (any of a cluster's URLs) and the NATS
    admin's placeholder are refused like the servers' own setting."""
    with pytest.raises(ValidationError, match="LEDGER_NATS_URL") as refused:
        Settings(nats_url="nats://a:4222,nats://ledger:CHANGE-ME@b:4222")
    assert "CHANGE-ME" not in str(refused.value).split("input_value")[0]
    assert Settings(nats_url="nats://ledger:n0t-a-placeholder@b:4222").nats_url
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
        "LEDGER_NATS_URL": "nats://127.0.0.1:1",
        "LEDGER_NATS_ADMIN_USER": "admin",
        "LEDGER_NATS_ADMIN_PASSWORD": "CHANGE-ME-TO-A-LONG-RANDOM-STRING",
    }
    ledger = Path(sys.executable).with_name("ledger")
    done = subprocess.run(
        [str(ledger), "nats", "setup"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "LEDGER_NATS_ADMIN_PASSWORD" in lines[0], done.stderr
