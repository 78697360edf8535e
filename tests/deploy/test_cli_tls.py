"""The CLI speaks TLS and mutual TLS with the server's own settings.

A real server serves gRPC over mutual TLS only.  ``ledger stats`` reaches it
with ``LEDGER_GRPC_TLS_CA`` (the CA of the server's certificate) and the
client certificate of ``LEDGER_GRPC_TLS_CLIENT_CERT``/``_KEY``; without the
client certificate, or in plaintext, it says in one line that it could not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from services.cli import app
from tests.deploy.certificates import Authority
from tests.support.server import serve_in_process

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


@pytest.fixture(scope="module")
def authority(tmp_path_factory: pytest.TempPathFactory) -> Authority:
    return Authority(tmp_path_factory.mktemp("cli-tls"))


@pytest.fixture(scope="module")
def tls_server(settings: Any, ledger: Any, authority: Authority) -> Iterator[Any]:
    issued = authority.issue("ledger", server=True)
    secured = settings.model_copy(
        update={
            "grpc_tls_cert": issued.cert,
            "grpc_tls_key": issued.key,
            "grpc_tls_client_ca": authority.pem,
        }
    )
    with serve_in_process(secured, ledger) as server:
        yield server


def stats(server: Any, env: dict[str, str]) -> Any:
    base = {
        k: None
        for k in (
            "LEDGER_GRPC_TLS_CA",
            "LEDGER_GRPC_TLS_CERT",
            "LEDGER_GRPC_TLS_KEY",
            "LEDGER_GRPC_TLS_CLIENT_CERT",
            "LEDGER_GRPC_TLS_CLIENT_KEY",
            "LEDGER_ADMIN_TOKEN",
        )
    }
    return CliRunner().invoke(
        app,
        ["stats", "thalara", "--target", f"127.0.0.1:{server.port}"],
        env={**base, **env},
        terminal_width=200,
    )


def test_the_cli_reaches_a_mutual_tls_server_with_the_servers_settings(
    tls_server: Any, authority: Authority
) -> None:
    player = authority.issue("player", server=False)
    result = stats(
        tls_server,
        {
            "LEDGER_GRPC_TLS_CA": str(authority.pem),
            "LEDGER_GRPC_TLS_CLIENT_CERT": str(player.cert),
            "LEDGER_GRPC_TLS_CLIENT_KEY": str(player.key),
        },
    )
    assert result.exit_code == 0, result.output
    assert "thalara" in result.output.lower()


@pytest.mark.parametrize("tls", ["plaintext", "no client certificate"])
def test_without_what_the_server_asks_it_is_one_line(
    tls_server: Any, authority: Authority, tls: str
) -> None:
    env = {} if tls == "plaintext" else {"LEDGER_GRPC_TLS_CA": str(authority.pem)}
    result = stats(tls_server, env)
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
