"""The deployment files validate offline and name only metrics the code exports.

check-jsonschema ships the compose specification and kubernetes-validate the
Kubernetes schemas inside their packages, so these run with no network.  Each
validator is also shown a broken copy, so a validator that accepts anything
would fail here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S_VERSION = "1.37.0"  # one kubernetes-validate ships (no download)
BIN = Path(sys.executable).parent


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / tool), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _kubernetes_validate(*files: Path) -> subprocess.CompletedProcess[str]:
    return _run(
        "kubernetes-validate",
        "--strict",
        "--kubernetes-version",
        K8S_VERSION,
        *map(str, files),
    )


def test_compose_file_follows_the_compose_specification(tmp_path: Path) -> None:
    ok = _run(
        "check-jsonschema",
        "--builtin-schema",
        "vendor.compose-spec",
        str(DEPLOY / "compose.yaml"),
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    broken = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    broken["services"]["nats-1"]["restart"] = ["always"]  # must be a string
    (tmp_path / "compose.yaml").write_text(yaml.safe_dump(broken))
    bad = _run(
        "check-jsonschema",
        "--builtin-schema",
        "vendor.compose-spec",
        str(tmp_path / "compose.yaml"),
    )
    assert bad.returncode != 0


def test_compose_runs_every_role() -> None:
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    ours = {n: s for n, s in services.items() if s.get("image") == "game-ledger:latest"}
    commands = {name: s.get("command", ["serve"]) for name, s in ours.items()}
    assert sorted(n for n, c in commands.items() if c == ["serve"]) == [
        "ledger-1",
        "ledger-2",
        "ledger-3",
    ]
    assert [n for n, c in commands.items() if c == ["project"]] == ["projector"]
    assert [n for n, c in commands.items() if c[:1] == ["dashboard"]] == ["dashboard"]
    assert commands["dashboard"][1:] == ["--http", "0.0.0.0:8080"]  # not loopback
    assert commands["migrate"] == ["db", "setup", "--service-role", "ledger_svc"]
    assert commands["nats-setup"][:4] == ["nats", "setup", "--replicas", "3"]
    for node in ("nats-1", "nats-2", "nats-3"):  # one cluster, nats.conf
        assert services[node]["command"] == ["-c", "/etc/nats/nats.conf"]
        assert services[node]["environment"]["NATS_SERVER_NAME"] == node
    for name in ("postgres", "prometheus", "grafana"):
        assert name in services


def test_kubernetes_manifests_validate(tmp_path: Path) -> None:
    files = sorted((DEPLOY / "k8s").glob("*.yaml"))
    ok = _kubernetes_validate(*files)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    docs = list(yaml.safe_load_all((DEPLOY / "k8s" / "ledger.yaml").read_text()))
    docs[0]["spec"]["template"]["spec"]["containers"][0]["readinessProbe"] = {
        "grpc": {"port": "grpc"}  # a gRPC probe needs a number
    }
    (tmp_path / "ledger.yaml").write_text(yaml.safe_dump_all(docs))
    bad = _kubernetes_validate(tmp_path / "ledger.yaml")
    assert bad.returncode != 0


def _resources() -> dict[tuple[str, str], dict]:
    found = {}
    for path in (DEPLOY / "k8s").glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


def test_kubernetes_manifests_cover_the_deployment() -> None:
    res = _resources()
    servers = res[("StatefulSet", "ledger")]["spec"]
    grpc_pod = servers["template"]["spec"]
    # each pod's signer record and checkpoint log outlive it; nothing else of its is kept
    (claim,) = servers["volumeClaimTemplates"]
    assert claim["metadata"]["name"] == "data"
    assert {"name": "data", "mountPath": "/var/lib/ledger"} in grpc_pod["containers"][
        0
    ]["volumeMounts"]
    assert all(v["name"] != "data" for v in grpc_pod["volumes"])
    (server,) = grpc_pod["containers"]
    assert server["readinessProbe"]["grpc"]["port"] == 50051
    assert server["startupProbe"]["grpc"]["port"] == 50051
    assert server["resources"]["requests"] and server["resources"]["limits"]
    pre_stop = server["lifecycle"]["preStop"]["sleep"]["seconds"]
    config = res[("ConfigMap", "ledger-config")]["data"]
    drain = float(config["LEDGER_DRAIN_SECONDS"])
    assert grpc_pod["terminationGracePeriodSeconds"] > pre_stop + drain
    pdb = res[("PodDisruptionBudget", "ledger")]["spec"]
    assert pdb["selector"]["matchLabels"] == {"app.kubernetes.io/name": "ledger"}
    assert res[("Service", "ledger")]["spec"]["ports"][0]["port"] == 50051
    (projector,) = res[("Deployment", "ledger-projector")]["spec"]["template"]["spec"][
        "containers"
    ]
    assert projector["args"] == ["project"]
    job = res[("Job", "ledger-db-setup")]["spec"]["template"]["spec"]
    assert job["containers"][0]["args"] == [
        "db",
        "setup",
        "--service-role",
        "ledger_svc",
    ]
    secret = res[("Secret", "ledger-service")]["stringData"]
    assert {"admin-token", "signing-key"} <= set(secret)
    for kind, name in res:
        if kind in ("Deployment", "StatefulSet", "Job"):
            pod = res[(kind, name)]["spec"]["template"]["spec"]
            assert pod["securityContext"]["runAsNonRoot"] is True


def _exported() -> set[str]:
    """Every sample name the service and the views can export."""
    from prometheus_client import REGISTRY

    import projections.runner  # noqa: F401 - each registers its metrics on import
    import services.observability.metrics
    import services.storage.group_commit  # noqa: F401

    suffixes = {
        "counter": ("_total",),
        "histogram": ("_bucket", "_count", "_sum"),
        "gauge": ("",),
    }
    names = set()
    for metric in REGISTRY.collect():
        for suffix in suffixes.get(metric.type, ("",)):
            names.add(metric.name + suffix)
    return names


METRIC = re.compile(r"\b(ledger_[a-z0-9_]+)")


def _rules() -> list[dict]:
    groups = yaml.safe_load((DEPLOY / "prometheus" / "rules.yaml").read_text())
    return [rule for group in groups["groups"] for rule in group["rules"]]


def test_prometheus_rules_name_only_exported_metrics() -> None:
    exported, rules = _exported(), _rules()
    recorded = {r["record"] for r in rules if "record" in r}
    used = set()
    for rule in rules:
        used |= set(METRIC.findall(rule["expr"]))
        for name in re.findall(r"\b(ledger:[a-z0-9_:]+)", rule["expr"]):
            assert name in recorded, name
    assert used, "no metric found in the rules"
    assert used - exported == set()
    for topic in (
        "ledger_rpc_duration_seconds_bucket",
        "ledger_projection_lag_events",
        "ledger_stream_subscribers",
        "ledger_database_errors_total",
        "ledger_database_up",
    ):
        assert topic in used, topic
    assert {"LedgerDown", "LedgerDatabaseUnreachable", "LedgerProjectionLagging"} <= {
        r.get("alert") for r in rules
    }


def test_grafana_dashboard_names_only_exported_metrics() -> None:
    exported = _exported()
    recorded = {r["record"] for r in _rules() if "record" in r}
    dashboard = json.loads((DEPLOY / "grafana" / "ledger.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    used = {m for e in exprs for m in METRIC.findall(e)}
    assert used and used - exported == set()
    for e in exprs:
        for name in re.findall(r"\b(ledger:[a-z0-9_:]+)", e):
            assert name in recorded, name
    assert len({p["id"] for p in dashboard["panels"]}) == len(dashboard["panels"])


def test_k8s_servers_get_the_read_replica_and_the_keyring() -> None:
    """The servers read from the replica, and a rotation needs only the
    keyring ConfigMap and the Secret changed (then a rollout restart)."""
    from services.storage.signing_key import parse_keyring

    resources = _resources()
    for kind, deployment in (
        ("StatefulSet", "ledger"),
        ("Deployment", "ledger-dashboard"),
    ):
        spec = resources[(kind, deployment)]["spec"]["template"]["spec"]
        env = {e["name"]: e for e in spec["containers"][0]["env"]}
        assert env["LEDGER_READ_DATABASE_URL"]["valueFrom"]["secretKeyRef"] == {
            "name": "ledger-service",
            "key": "read-database-url",
        }
        ring = env["LEDGER_KEYRING"]["valueFrom"]["configMapKeyRef"]
        assert ring == {"name": "ledger-keyring", "key": "keyring"}
        assert (
            env["LEDGER_SIGNING_KEY"]["valueFrom"]["secretKeyRef"]["key"]
            == "signing-key"
        )
    keyring = resources[("ConfigMap", "ledger-keyring")]["data"]["keyring"]
    assert parse_keyring(keyring).keys == ()


def test_the_ha_compose_file_runs_the_files_the_local_script_runs() -> None:
    """compose.ha.yaml follows the specification, and its nodes and HAProxy
    run patroni/patroni.yml and patroni/haproxy.cfg, with every variable the
    HAProxy file reads set, as deploy/local/pg-ha-up.sh sets them."""
    ok = _run(
        "check-jsonschema",
        "--builtin-schema",
        "vendor.compose-spec",
        str(DEPLOY / "compose.ha.yaml"),
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    services = yaml.safe_load((DEPLOY / "compose.ha.yaml").read_text())["services"]
    wanted = set(
        re.findall(r"\$\{(\w+)\}", (DEPLOY / "patroni" / "haproxy.cfg").read_text())
    )
    assert wanted >= {"HA_PRIMARY", "PG_NODE_0", "PG_REST_PORT_2"}
    local = (DEPLOY / "local" / "pg-ha-up.sh").read_text()
    for name in ("postgres", "postgres-replica"):
        proxy = services[name]
        assert (
            "./patroni/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"
            in proxy["volumes"]
        )
        assert wanted <= set(proxy["environment"]), name
    assert all(f"{v}=" in local for v in wanted)
    nodes = [
        s for s in services.values() if s.get("build", {}).get("context") == "patroni"
    ]
    assert len(nodes) == 3
    dockerfile = (DEPLOY / "patroni" / "Dockerfile").read_text()
    assert (
        "COPY patroni.yml" in dockerfile and '"/etc/patroni/patroni.yml"' in dockerfile
    )
    assert "$conf/patroni.yml" in local
