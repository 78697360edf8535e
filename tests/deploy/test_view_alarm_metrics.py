"""The view alarms have a value on the metrics port whatever process runs the views.

With the default views child, the views run in a process of their own, and
the gauges it set lived in that process's registry: the server's metrics
port had no ``ledger_projection_stalled`` at all, so an alert on it could
never fire.  Here a real ``ledger serve`` runs each views mode and its
metrics port must report every view's alarms.
"""

from __future__ import annotations

import os
import secrets

import httpx
import pytest

from projections import registry
from tests.deploy.shipped import free_ports
from tests.support.database import scratch_database
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def alarms(port: int) -> dict[str, dict[str, float]]:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    found: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        for name in ("ledger_projection_stalled", "ledger_projection_games_stopped"):
            if line.startswith(name + "{"):
                view = line.split('view="', 1)[1].split('"', 1)[0]
                found.setdefault(name, {})[view] = float(line.rsplit(" ", 1)[1])
    return found


@pytest.mark.parametrize("mode", ["child", "in-process"])
def test_every_views_alarm_has_a_value_on_the_servers_metrics_port(
    server_url, tmp_path, mode
):
    (port,) = [free_ports(1)]
    with scratch_database(server_url, "ledger_view_alarms") as url:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": url,
            "LEDGER_ADMIN_TOKEN": secrets.token_urlsafe(16),
            "LEDGER_DATA_DIR": str(tmp_path),
            "LEDGER_METRICS_PORT": str(port),
        }
        with ledger_serve(env, "--views", mode):
            every = {name: 0.0 for name in registry.VIEWS}
            wait_until(
                lambda: (
                    alarms(port)
                    == {
                        "ledger_projection_stalled": every,
                        "ledger_projection_games_stopped": every,
                    }
                ),
                f"the metrics port lacks the view alarms: {alarms(port)}",
                timeout=30,
            )
