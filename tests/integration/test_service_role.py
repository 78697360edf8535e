"""Two roles: the owner sets the database up, the service reads and appends only.

A throwaway database and LOGIN role per module: ``ledger db setup
--service-role`` runs as the superuser, then the service role plays, projects
and starts a tournament round with ``create_tables=False``, and cannot
change, truncate or un-trigger the events whatever it tries.
"""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from pydantic import SecretStr
from typer.testing import CliRunner

from domain.audit.game_audit import audit_records
from domain.games import find_game
from projections.runner import SetupRequiredError
from services.cli import app
from services.ledger.application import GameLedger
from services.runtime.bootstrap import build_ledger, view_runners
from services.runtime.settings import Settings
from services.storage.roles import EVENTS_TABLES, ServiceRoleRecorder, service_grants
from services.tournaments.desk import TournamentDesk
from tests.support.database import scalar

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}
MOVES = 6


def with_params(url: str, **params: str) -> str:
    merged = conninfo_to_dict(url)
    merged.pop("password", None) if "user" in params else None
    merged.update(params)
    return make_conninfo("", **merged)


def db_setup(owner_url: str, data_dir: Path, *args: str) -> tuple[int, str]:
    env = {"LEDGER_DATABASE_URL": owner_url, "LEDGER_DATA_DIR": str(data_dir)}
    result = CliRunner().invoke(app, ["db", "setup", *args], env=env)
    return result.exit_code, result.output


@dataclass(frozen=True)
class Deployment:
    owner_url: str
    service_url: str
    role: str
    data_dir: Path

    def service_settings(self, url: str | None = None) -> Settings:
        return Settings(
            database_url=url or self.service_url,
            data_dir=self.data_dir,
            admin_token=SecretStr("t"),
            pool_size=2,
            snapshot_interval=2,
            create_tables=False,
        )


@pytest.fixture(scope="module")
def deployment(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    suffix = secrets.token_hex(4)
    dbname, role = f"ledger_roles_{suffix}", f"ledger_svc_{suffix}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
    owner_url = with_params(server_url, dbname=dbname)
    data_dir = tmp_path_factory.mktemp("roles")
    try:
        for _ in range(2):  # a re-run is harmless and leaves the same grants
            code, output = db_setup(owner_url, data_dir, "--service-role", role)
            assert code == 0, output
            assert "ledger_lock_events(text)" in output and "not granted" not in output
        yield Deployment(owner_url, with_params(owner_url, user=role), role, data_dir)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


@pytest.fixture(scope="module")
def service_ledger(deployment: Deployment) -> Iterator[GameLedger]:
    ledger = build_ledger(deployment.service_settings())
    yield ledger
    ledger.close()


@pytest.fixture(scope="module")
def game_id(service_ledger: GameLedger) -> uuid.UUID:
    """A thalara game created and moved by the service role."""
    created = service_ledger.create_game("thalara", SETUP)
    rnd = random.Random(7)
    for _ in range(MOVES):
        game = service_ledger.load(created.game_id)
        seat = rnd.choice(game.to_act())
        command = THALARA.random_command(game.state, seat, rnd)
        assert command is not None, "a seat that must act has a legal move"
        service_ledger.submit(created.game_id, command, seat, str(uuid.uuid4()))
    return created.game_id


def owner_count(
    deployment: Deployment, table: str, game_id: uuid.UUID | None = None
) -> int:
    with psycopg.connect(deployment.owner_url) as conn:
        where = " WHERE originator_id = %s" if game_id else ""
        row = conn.execute(
            f"SELECT count(*) FROM {table}{where}", (game_id,) if game_id else ()
        )
        return int(row.fetchone()[0])  # type: ignore[index]


def test_the_service_role_plays_reads_back_projects_and_starts_a_round(
    deployment, service_ledger, game_id
):
    assert isinstance(service_ledger.recorder, ServiceRoleRecorder)
    restarted = build_ledger(
        deployment.service_settings()
    )  # empty cache: reads the database
    try:
        game = restarted.load(game_id)
        rows = restarted.read_records(game_id)
        assert (
            len(rows)
            == game.version
            == owner_count(deployment, "ledger_events", game_id)
        )
        assert game.version > MOVES  # every move stored at least one event
        report = audit_records(
            str(game_id), rows, server_seed=restarted.seed_of(game_id)
        )
        assert report.ok, report.failures
    finally:
        restarted.close()
    assert owner_count(deployment, "ledger_snapshots", game_id) >= 1  # every 2 events

    runners = view_runners(service_ledger.datastore, create_tables=False)
    for runner in runners:
        runner.ensure_tables()  # checks only
        runner.step()
        status = runner.status()
        assert status.head > 0 and status.lag == 0, status
    with service_ledger.datastore.transaction() as curs:
        curs.execute("SELECT game_type FROM stats_games WHERE game_id = %s", (game_id,))
        assert curs.fetchone()["game_type"] == "thalara"

    desk = TournamentDesk(service_ledger.env_for_peers, service_ledger)
    try:
        assert isinstance(desk.recorder, ServiceRoleRecorder)
        tournament, _ = desk.create("cup", "terralore", "round_robin", 0, 2, {})
        tokens = {p: desk.register(tournament.id, p) for p in ("ann", "bob")}
        started = desk.start_round(tournament.id)
        (table,) = started.state.round_records[0].tables
        assert service_ledger.load(uuid.UUID(table.game_id)).player_ids == (
            "ann",
            "bob",
        )
        assert [
            g["game_id"] for g in desk.my_games(tournament.id, "ann", tokens["ann"])
        ] == [uuid.UUID(table.game_id)]
        assert (
            desk.load(tournament.id).version == 4
        )  # created, two registered, round started
    finally:
        desk.close()
    with (
        service_ledger.datastore.transaction() as curs
    ):  # the journal was cleared in the round's save
        curs.execute("SELECT count(*) AS n FROM tournament_pending_games")
        assert curs.fetchone()["n"] == 0
    assert (
        sum(r.step() for r in runners) > 0
    )  # the round's game, projected as the service role


APPEND_ONLY = {
    "ledger_events": "topic",
    "tournaments_events": "topic",
    "ledger_snapshots": "topic",
    "ledger_commands": "actor",
    "ledger_game_secrets": "seed",
}
"""Append-only tables, each with a column an UPDATE can name."""
REFUSED = [
    *(
        (
            statement.format(table=table, column=column),
            f"permission denied for table {table}",
        )
        for table, column in APPEND_ONLY.items()
        for statement in (
            "UPDATE {table} SET {column} = {column}",
            "DELETE FROM {table}",
            "TRUNCATE {table}",
        )
    ),
    (
        "ALTER TABLE ledger_events DISABLE TRIGGER ALL",
        "must be owner of table ledger_events",
    ),
    (
        "ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_append_only",
        "must be owner of table",
    ),
    (
        "DROP TRIGGER ledger_events_append_only ON ledger_events",
        "must be owner of relation ledger_events",
    ),
    (
        "DROP TRIGGER tournaments_events_no_truncate ON tournaments_events",
        "must be owner of relation",
    ),
    (
        "SET session_replication_role = replica",
        'permission denied to set parameter "session_replication_role"',
    ),
    (
        (
            "CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql"
            " AS $$BEGIN RETURN NEW; END$$"
        ),
        "permission denied for schema public",
    ),
    (
        "ALTER FUNCTION ledger_refuse_change() OWNER TO CURRENT_USER",
        "must be owner of function",
    ),
    ("CREATE TABLE ledger_events_copy (x int)", "permission denied for schema public"),
    (
        "SELECT ledger_lock_events('ledger_games')",
        "ledger_games is not an events table",
    ),
]


@pytest.mark.parametrize(("statement", "message"), REFUSED, ids=[s for s, _ in REFUSED])
def test_the_service_role_cannot_change_events_or_their_triggers(
    deployment, game_id, statement, message
):
    before = owner_count(deployment, "ledger_events")
    with psycopg.connect(deployment.service_url, autocommit=True) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == deployment.role
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match=message):
            conn.execute(statement)
    assert owner_count(deployment, "ledger_events") == before > 0
    with psycopg.connect(deployment.owner_url) as conn:
        enabled = conn.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = ANY(%s::regclass[]) AND NOT tgisinternal",
            ([*EVENTS_TABLES],),
        ).fetchall()
    assert sorted(enabled) == sorted(
        (f"{t}_{name}", "O")
        for t in EVENTS_TABLES
        for name in ("append_only", "no_truncate")
    )


def test_the_grants_are_exactly_what_the_service_needs(deployment):
    with psycopg.connect(deployment.owner_url) as conn:
        granted: dict[str, set[str]] = {}
        for table, privilege in conn.execute(
            "SELECT table_name, privilege_type FROM information_schema.role_table_grants WHERE grantee = %s",
            (deployment.role,),
        ):
            granted.setdefault(table, set()).add(privilege)
        owned = conn.execute(
            "SELECT count(*) FROM pg_class WHERE relowner = %s::regrole",
            (deployment.role,),
        ).fetchone()[0]
    assert granted == {
        table: set(privileges) for table, privileges in service_grants().items()
    }
    for table in EVENTS_TABLES:
        assert granted[table] == {"SELECT", "INSERT"}
    assert owned == 0


def test_without_create_tables_an_empty_database_fails_at_start_naming_ledger_db_setup(
    server_url,
    deployment,
):
    dbname = f"ledger_empty_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    url = with_params(server_url, dbname=dbname)
    try:
        with pytest.raises(
            SetupRequiredError, match="missing tables: .*ledger_events"
        ) as raised:
            build_ledger(deployment.service_settings(url))
        assert "run `ledger db setup --service-role" in str(raised.value)
        with psycopg.connect(url) as conn:  # and it created nothing
            tables = conn.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
            ).fetchone()
        assert tables == (0,)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


def test_a_role_without_the_grants_fails_at_start_naming_its_setup_command(
    server_url, deployment
):
    role = f"ledger_bare_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        with pytest.raises(
            SetupRequiredError, match="missing grants: SELECT on ledger_events"
        ) as raised:
            build_ledger(
                deployment.service_settings(
                    with_params(deployment.owner_url, user=role)
                )
            )
        assert f"ledger db setup --service-role {role}" in str(raised.value)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


@pytest.mark.parametrize(
    ("attributes", "message"),
    [
        ("LOGIN CREATEROLE", "is a superuser or may create roles"),
        (None, "does not exist"),
    ],
)
def test_setup_refuses_a_service_role_that_could_undo_the_triggers(
    server_url,
    deployment,
    attributes,
    message,
):
    role = f"ledger_unsafe_{secrets.token_hex(4)}"
    if attributes:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'CREATE ROLE "{role}" {attributes}')
    try:
        code, output = db_setup(
            deployment.owner_url, deployment.data_dir, "--service-role", role
        )
        assert code == 2
        assert message in " ".join(output.split())
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def test_the_service_role_records_a_tournament_result(deployment, service_ledger):
    desk = TournamentDesk(service_ledger.env_for_peers, service_ledger)
    try:
        tournament, _ = desk.create("final", "terralore", "round_robin", 0, 2, {})
        for player in ("cat", "dan"):
            desk.register(tournament.id, player)
        (table,) = desk.start_round(tournament.id).state.round_records[0].tables
        game_id, ruleset, rnd = (
            uuid.UUID(table.game_id),
            find_game("terralore"),
            random.Random(5),
        )
        while not (game := service_ledger.load(game_id)).is_over:
            seat = rnd.choice(game.to_act())
            service_ledger.submit(
                game_id,
                ruleset.random_command(game.state, seat, rnd),
                seat,
                str(uuid.uuid4()),
            )
        (runner,) = view_runners(
            service_ledger.datastore, ["tournament_results"], create_tables=False
        )
        runner.catch_up()
        assert desk.load(tournament.id).state.finished
    finally:
        desk.close()


def test_ledger_serve_runs_as_the_service_role_with_its_views(
    deployment: Deployment, tmp_path: Path
) -> None:
    """The whole server, projections included, as a role that owns nothing."""
    from services.api.client import Connection, create, play_to_end
    from tests.support.server import ledger_serve, wait_until

    def views_caught_up() -> bool:
        with psycopg.connect(deployment.owner_url) as owner:
            head = scalar(
                owner.execute("SELECT max(notification_id) FROM ledger_events")
            )
            behind = owner.execute(
                "SELECT count(*) FROM projection_tracking WHERE position < %s", (head,)
            )
            return bool(scalar(behind) == 0)

    env = {
        "LEDGER_DATABASE_URL": deployment.service_url,
        "LEDGER_CREATE_TABLES": "false",
        "LEDGER_ADMIN_TOKEN": "svc-admin",
        "LEDGER_DATA_DIR": str(tmp_path),
        "XDG_RUNTIME_DIR": str(tmp_path),
    }
    with ledger_serve(env) as served:
        conn = Connection.open(served.target)
        assert play_to_end(conn, create(conn, "terralore", players=2), seed=3) > 2
        conn.channel.close()
        wait_until(views_caught_up, "views did not catch up as the service role")
    assert "permission denied" not in served.output, served.output
