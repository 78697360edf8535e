"""TLS everywhere a ledger server talks: gRPC (optionally mutual) and PostgreSQL.

Certificates are made by the test (:mod:`tests.deploy.certificates`).  gRPC:
``ledger serve`` with ``LEDGER_GRPC_TLS_*`` answers SERVING over TLS to a
client holding a certificate from the client CA, and to no one else.
PostgreSQL: a cluster of the test's own that accepts only TLS connections
authenticated by client certificate; ``ledger db setup`` and ``ledger
serve`` reach it with nothing but ``?sslmode=verify-full&sslrootcert=...
&sslcert=...&sslkey=...`` in ``LEDGER_DATABASE_URL``, so the parameters
reach every pooled connection.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from services.runtime.health_probe import channel_for, check
from tests.deploy.certificates import Authority, Issued
from tests.deploy.shipped import BIN, Process, free_port, started
from tests.support.database import scratch_database
from tests.support.scratch_postgres import ScratchPostgres

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def _env(url: str, data: Path, **extra: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
        "LEDGER_DATABASE_URL": url,
        "LEDGER_DATA_DIR": str(data),
        "LEDGER_HTTP_LISTEN": "off",
        "LEDGER_VIEWS": "off",
        "LEDGER_POOL_SIZE": "2",
        **extra,
    }


def _wait(process: Process, probe: object, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        assert process.popen.poll() is None, f"{what}: exited\n{process.output()}"
        ok, seen = probe()  # type: ignore[operator]
        if ok:
            return
        time.sleep(0.3)
    raise AssertionError(f"{what}: {seen}\n{process.output()}")


def test_grpc_serves_mutual_tls_to_certified_clients_only(server_url, tmp_path):
    ca, stranger = Authority(tmp_path), Authority(tmp_path, "another CA")
    server = ca.issue("ledger", server=True)
    client, forged = (
        ca.issue("player", server=False),
        stranger.issue("player", server=False),
    )
    port = free_port()
    target = f"127.0.0.1:{port}"
    with scratch_database(server_url, "ledger_tls") as url:
        env = _env(
            url,
            tmp_path,
            LEDGER_LISTEN=target,
            LEDGER_GRPC_TLS_CERT=str(server.cert),
            LEDGER_GRPC_TLS_KEY=str(server.key),
            LEDGER_GRPC_TLS_CLIENT_CA=str(ca.pem),
        )
        command = [str(BIN / "ledger"), "serve"]
        with started("tls", command, env, tmp_path, tmp_path) as serving:

            def over(cert: Issued | None) -> tuple[bool, str]:
                channel = channel_for(
                    target,
                    str(ca.pem),
                    str(cert.cert) if cert else None,
                    str(cert.key) if cert else None,
                )
                return check(target, timeout=2, channel=channel)

            _wait(serving, lambda: over(client), "SERVING over mutual TLS")
            assert not check(target, timeout=2)[0]  # plaintext
            assert not over(None)[0]  # TLS without a client certificate
            assert not over(forged)[0]  # a certificate from another CA
            assert serving.stop() == 0, serving.output()


@pytest.fixture
def tls_only_postgres(tmp_path) -> Iterator[tuple[ScratchPostgres, Authority]]:
    """A cluster that takes TLS connections with a client certificate only."""
    pg = ScratchPostgres()
    try:
        ca = Authority(tmp_path)
        server = ca.issue("postgres", server=True)
        for source, name in (
            (server.cert, "server.crt"),
            (server.key, "server.key"),
            (ca.pem, "root.crt"),
        ):
            shutil.copy(source, pg.data / name)
            if pg.user:
                shutil.chown(pg.data / name, pg.user, pg.user)
        (pg.data / "server.key").chmod(0o600)
        with (pg.data / "postgresql.conf").open("a") as conf:
            conf.write(
                "ssl = on\nssl_cert_file = 'server.crt'\n"
                "ssl_key_file = 'server.key'\nssl_ca_file = 'root.crt'\n"
            )
        (pg.data / "pg_hba.conf").write_text(
            "hostssl all all 127.0.0.1/32 cert\nhostnossl all all 127.0.0.1/32 reject\n"
        )
        pg.start()
        yield pg, ca
    finally:
        pg.close()


def test_the_database_url_tls_parameters_reach_every_connection(
    tls_only_postgres, tmp_path
):
    pg, ca = tls_only_postgres
    me = ca.issue("postgres", server=False)  # cert auth: the CN is the role
    url = (
        f"postgresql://postgres@127.0.0.1:{pg.port}/postgres?sslmode=verify-full"
        f"&sslrootcert={ca.pem}&sslcert={me.cert}&sslkey={me.key}"
    )
    ledger = str(BIN / "ledger")
    setup = subprocess.run(
        [ledger, "db", "setup"],
        env=_env(url, tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert setup.returncode == 0, setup.stdout + setup.stderr
    target = f"127.0.0.1:{free_port()}"
    env = _env(url, tmp_path, LEDGER_LISTEN=target)
    with started("serve", [ledger, "serve"], env, tmp_path, tmp_path) as serving:
        _wait(serving, lambda: check(target, timeout=2), "SERVING on a TLS database")
        assert serving.stop() == 0, serving.output()

    wrong = Authority(tmp_path, "not the server's CA")
    refused = subprocess.run(
        [ledger, "db", "setup"],
        env=_env(url.replace(str(ca.pem), str(wrong.pem)), tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert refused.returncode != 0  # verify-full checks the server's certificate
    assert "certificate verify failed" in refused.stderr, refused.stderr


def test_the_dashboard_serves_https_with_its_certificate(server_url, tmp_path):
    import ssl
    import urllib.error
    import urllib.request

    ca = Authority(tmp_path)
    server = ca.issue("dashboard", server=True)
    port = free_port()
    trusted = ssl.create_default_context(cafile=str(ca.pem))

    def status(url: str, context: ssl.SSLContext | None) -> tuple[bool, str]:
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as answer:
                return answer.status == 200, str(answer.status)
        except (urllib.error.URLError, OSError) as exc:
            return False, str(exc)

    with scratch_database(server_url, "ledger_https") as url:
        env = _env(
            url,
            tmp_path,
            LEDGER_HTTP_TLS_CERT=str(server.cert),
            LEDGER_HTTP_TLS_KEY=str(server.key),
        )
        command = [str(BIN / "ledger"), "dashboard", "--http", f"127.0.0.1:{port}"]
        with started("dashboard", command, env, tmp_path, tmp_path) as dashboard:
            https = f"https://127.0.0.1:{port}/healthz"
            _wait(dashboard, lambda: status(https, trusted), "HTTPS /healthz")
            assert not status(f"http://127.0.0.1:{port}/healthz", None)[0]
            assert "https://" in dashboard.output()
            assert dashboard.stop() == 0, dashboard.output()
