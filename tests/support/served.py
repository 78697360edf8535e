"""One fresh ``ledger serve`` process per test session, for tests that act as strangers.

The README runner, the reflection-only client and the Node acceptance client
talk to a real server process that nothing in the test process has touched:
its own scratch database, data dir and admin token, on a free port.  Started
lazily (only sessions that use it pay the start-up) and shared, so three
test files cost one server.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.support.database import scratch_database
from tests.support.server import ServeProcess, ledger_serve


@dataclass
class FreshServer:
    target: str
    env: dict[str, str]
    """``LEDGER_*`` settings that point the CLI at this server and its database."""
    process: ServeProcess


@pytest.fixture(scope="session")
def fresh_server(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FreshServer]:
    data_dir = tmp_path_factory.mktemp("fresh-server")
    with scratch_database(server_url, "ledger_fresh") as database_url:
        env = {
            "LEDGER_DATABASE_URL": database_url,
            "LEDGER_ADMIN_TOKEN": "fresh-server-admin",
            "LEDGER_DATA_DIR": str(data_dir),
            "LEDGER_POOL_SIZE": "2",
            "XDG_RUNTIME_DIR": str(data_dir),
        }
        with ledger_serve(env) as served:
            yield FreshServer(
                served.target, {**env, "LEDGER_LISTEN": served.target}, served
            )
