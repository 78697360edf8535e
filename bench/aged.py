"""The aged-log scenario: the same measurements on a young and an aged database.

Why side by side in one run: on a machine shared by other work, a figure
from yesterday's run says little next to one from today's.  Both databases
are filled by the same builder (:mod:`bench.aged_log`): the young one with a
few thousand events of real games (a fresh deployment), the aged one with a
year of play (5 million events by default).  Each measurement runs on the
young one, then the aged one, in the same process, and the ratio is reported:

* scenario 1 (moves/s and submit p99) through each transport of
  :data:`TRANSPORTS`, against a ledger server of its own per database;
* the stats and ratings reads over gRPC, on the same server;
* a game's cold load (a ``GameLedger`` with no cached aggregate);
* every dashboard page (:func:`pages`), rendered in-process, p50/p95;
* a projection rebuild: each view reset and caught up from position 0;
* bytes per event (:func:`bench.storage_size.measure`) and the largest
  tables and indexes.

The aged database is cached (see :mod:`bench.aged_log`); the scenario
measures a per-run copy of it, dropped at the end, so scenario 1's own games
never age the cached one.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc

from bench import (
    aged_log,
    dashboard,
    db,
    machine,
    procs,
    scenarios,
    setups,
    storage_size,
)
from bench.config import AGED_FULL, AGED_QUICK, AgedSizes
from bench.stats import summarize_ms

Mix = list[tuple[str, dict[str, Any]]]


def _unary(server: Any, sizes: AgedSizes, mix: Mix) -> dict[str, Any]:
    """Scenario 1 as the rest of the bench drives it: unary gRPC calls."""
    section, _ = scenarios.throughput(
        server,
        (sizes.clients,),
        sizes.warmup_s,
        sizes.window_s,
        mix,
        sizes.clients,
        None,
        machine.retry_policy(),
    )
    row = section["runs"][0]
    return {
        "clients": row["clients"],
        "moves_per_s": row["moves_per_s"],
        "submit_p50_ms": row["submit_latency_ms"]["p50"],
        "submit_p99_ms": row["submit_latency_ms"]["p99"],
        "error_rate": row["error_rate"],
        "server_cpu_ms_per_move": row.get("server_cpu_ms_per_move"),
        "attempts_other_cpu_pct": row.get("attempts_other_cpu_pct"),
    }


TRANSPORTS: dict[str, Callable[[Any, AgedSizes, Mix], dict[str, Any]]] = {
    "unary": _unary,
}
"""Scenario 1's ways to reach the ledger: name -> (server, sizes, mix) -> row
with ``moves_per_s`` and ``submit_p99_ms``.  A streaming transport is one more
entry; the comparison and the report take every entry as it comes."""


def _timed(fn: Callable[[], Any], repeats: int) -> dict[str, Any]:
    fn()  # warm the connection and the plan cache
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return {
        "p50_ms": round(1000 * statistics.median(times), 2),
        "p95_ms": round(
            1000 * times[min(len(times) - 1, round(0.95 * (len(times) - 1)))], 2
        ),
    }


def reads(target: str, url: str, repeats: int) -> dict[str, Any]:
    """The stats and ratings RPCs, each called ``repeats`` times in turn."""
    import psycopg

    from ledger.v1 import read_service_pb2 as rs
    from ledger.v1 import read_service_pb2_grpc as rsg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT game_type, player_id FROM ratings_current"
            " ORDER BY games DESC LIMIT 1"
        ).fetchone()
    game_type, player = row if row else ("thalara", "nobody")
    calls: dict[str, Callable[[Any, Any], Any]] = {
        "GetLeaderboard": lambda r, s: r.GetLeaderboard(
            rs.GetLeaderboardRequest(game_type=game_type, page_size=50)
        ),
        "GetRatingHistory": lambda r, s: r.GetRatingHistory(
            rs.GetRatingHistoryRequest(
                game_type=game_type, player_id=player, page_size=50
            )
        ),
        "GetGameTypeStats": lambda r, s: s.GetGameTypeStats(
            rs.GetGameTypeStatsRequest(game_type=game_type)
        ),
        "GetPlayerHistory": lambda r, s: s.GetPlayerHistory(
            rs.GetPlayerHistoryRequest(
                player_id=player, game_type=game_type, page_size=50
            )
        ),
        "GetFairness": lambda r, s: s.GetFairness(
            rs.GetFairnessRequest(game_type=game_type)
        ),
    }
    out: dict[str, Any] = {"game_type": game_type}
    with grpc.insecure_channel(target) as channel:
        ratings = rsg.RatingServiceStub(channel)
        stats = rsg.StatsServiceStub(channel)
        for name, call in calls.items():

            def once(c: Callable[[Any, Any], Any] = call) -> Any:
                return c(ratings, stats)

            try:
                out[name] = _timed(once, repeats)
            except grpc.RpcError as exc:
                out[name] = {"error": f"{exc.code().name}: {exc.details()}"}
    return out


def cold_load(url: str, games: int) -> dict[str, Any]:
    """Load finished games spread over the whole log, each by a fresh repository read."""
    import psycopg

    from services.ledger.application import GameLedger
    from services.storage.database_env import eventsourcing_env

    with psycopg.connect(url) as conn:
        ids = [
            r[0]
            for r in conn.execute(
                "SELECT game_id FROM ledger_games WHERE status = 'ended'"
                " ORDER BY md5(game_id::text) LIMIT %s",
                (games,),
            ).fetchall()
        ]
    env = eventsourcing_env(url, 2, pool_min=1)
    env["AGGREGATE_CACHE_MAXSIZE"] = "0"
    app = GameLedger(env)
    times, events = [], []
    try:
        app.repository.get(ids[0])  # the pool's connection and prepared statements
        for gid in ids:
            t0 = time.perf_counter()
            game: Any = app.repository.get(gid)
            times.append(time.perf_counter() - t0)
            events.append(game.version)
    finally:
        app.close()
    per_event = [1000 * t / n for t, n in zip(times, events, strict=True)]
    return {
        "games": len(ids),
        "events_per_game_mean": round(statistics.mean(events), 1),
        "load_ms": summarize_ms(times),
        "ms_per_event_median": round(statistics.median(per_event), 4),
    }


def pages(app: Any, tournament_id: Any) -> dict[str, tuple[str, str]]:
    """Every dashboard page a visitor opens: the scenario 8 set, plus the
    stats index, every game's leaderboard and the longest game's export."""
    from domain.games import all_games

    out = dashboard._pages(app, tournament_id)
    out.pop("audit (on click; not a page)", None)
    out["stats index"] = ("GET", "/stats")
    for game in all_games():
        out[f"leaderboard {game.name}"] = ("GET", f"/leaderboards/{game.name}")
    longest = out["replay page (longest game)"][1].rsplit("/", 1)[1]
    out["export (longest game)"] = ("GET", f"/games/{longest}/export.ndjson")
    return out


def dashboard_pages(
    es_env: dict[str, str], tournament_id: str, repeats: int
) -> dict[str, Any]:
    from uuid import UUID

    from starlette.testclient import TestClient

    from services.dashboard.app import create_app
    from services.dashboard.reader import reader_for
    from services.ledger.application import GameLedger

    app = GameLedger(dict(es_env))
    try:
        reader = reader_for(app)
        try:
            with TestClient(create_app(reader)) as client:
                measured = {}
                for name, (method, path) in pages(app, UUID(tournament_id)).items():
                    try:
                        measured[name] = {
                            "path": path,
                            **dashboard._measure(client, method, path, repeats),
                        }
                    except Exception as exc:  # noqa: BLE001 - one page, not the run
                        measured[name] = {"path": path, "error": str(exc)}
        finally:
            reader.close()
    finally:
        app.close()
    timed = {k: v for k, v in measured.items() if "p95_ms" in v}
    worst = max(timed, key=lambda k: timed[k]["p95_ms"]) if timed else ""
    worst_p95 = timed[worst]["p95_ms"] if worst else None
    return {
        "repeats": repeats,
        "pages": measured,
        "worst_page": worst or None,
        "worst_p95_ms": worst_p95,
        "met": worst_p95 is not None
        and worst_p95 <= dashboard.TARGET_MS
        and len(timed) == len(measured),
    }


def projection_rebuild(es_env: dict[str, str], budget_s: float) -> dict[str, Any]:
    """Each view reset and caught up from the log's first position, for at most
    ``budget_s`` a view: a view not done by then reports its rate and the time
    the whole log would take at that rate.  Measured last, on a database the
    run drops, so a view left half rebuilt harms nothing."""
    from projections import registry
    from services.ledger.application import GameLedger
    from services.runtime.bootstrap import view_runners

    app = GameLedger(dict(es_env))
    out: dict[str, Any] = {}
    try:
        for name in list(registry.VIEWS):
            runner = view_runners(app.datastore, [name])[0]
            runner.ensure_tables()
            runner.reset()
            head = runner.status().head
            t0 = time.perf_counter()
            positions, done = 0, False
            while time.perf_counter() - t0 < budget_s:
                advanced = runner.step()
                positions += advanced
                if advanced == 0:
                    done = True
                    break
            took = time.perf_counter() - t0
            rate = positions / took if took > 0 else None
            out[name] = {
                "positions": positions,
                "seconds": round(took, 3),
                "complete": done,
                "positions_per_s": round(rate) if rate else None,
                "whole_log_s": round(took if done else head / rate, 1)
                if rate
                else None,
            }
    finally:
        app.close()
    out["total_s"] = round(
        sum(v["whole_log_s"] or 0 for v in out.values() if isinstance(v, dict)), 1
    )
    return out


def largest(url: str, top: int = 6) -> dict[str, Any]:
    """The largest tables (with TOAST) and indexes, in bytes."""
    import psycopg

    with psycopg.connect(url) as conn:
        tables = conn.execute(
            "SELECT relname, pg_table_size(c.oid) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind = 'r' AND n.nspname = 'public'"
            " ORDER BY 2 DESC LIMIT %s",
            (top,),
        ).fetchall()
        indexes = conn.execute(
            "SELECT relname, pg_relation_size(c.oid) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind = 'i' AND n.nspname = 'public'"
            " ORDER BY 2 DESC LIMIT %s",
            (top,),
        ).fetchall()
        (database,) = conn.execute(
            "SELECT pg_database_size(current_database())"
        ).fetchone() or (0,)
    return {
        "database_bytes": database,
        "tables": dict(tables),
        "indexes": dict(indexes),
    }


def churn(url: str) -> dict[str, Any]:
    """What the run's writes left for VACUUM: rows written, updated (HOT or
    not) and dead, per table that took writes (this database's counters)."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup"
            " FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0"
            " ORDER BY n_dead_tup DESC, relname"
        ).fetchall()
        (autovacuum,) = conn.execute("SHOW autovacuum").fetchone() or ("?",)
    return {
        "autovacuum": autovacuum,
        "tables": {
            r[0]: {"inserted": r[1], "updated": r[2], "hot_updated": r[3], "dead": r[4]}
            for r in rows
        },
    }


def _storage(url: str) -> dict[str, Any]:
    section = storage_size.measure(url)
    side = section.get("side_tables", {})
    return {
        "events": section.get("events"),
        "bytes_per_event": section.get("bytes_per_event"),
        "side_bytes_per_event": section.get("side_bytes_per_event"),
        "payload_bytes_per_event": section.get("payload_bytes_per_event"),
        "index_bytes_per_event": section.get("index_bytes_per_event"),
        "side_table_rows": {k: v["rows"] for k, v in side.items()},
        **largest(url),
    }


@contextlib.contextmanager
def _young(sizes: AgedSizes, mix: Mix) -> Iterator[tuple[str, dict[str, Any]]]:
    with db.bench_database() as url:
        info = aged_log.build(url, sizes.young_events, mix, 1, sizes.young_events)
        yield url, info


@contextlib.contextmanager
def _aged(
    sizes: AgedSizes, mix: Mix, rebuild: bool
) -> Iterator[tuple[str, dict[str, Any]]]:
    name, info = aged_log.ensure(
        sizes.events, mix, rebuild, sizes.build_workers, sizes.real_events
    )
    run = aged_log.copy_of(name)
    try:
        yield db.with_dbname(db.admin_url(), run), {**info, "cached_as": name}
    finally:
        aged_log.drop(run)


def prepare(es_env: dict[str, str], url: str) -> None:
    """Bring the views' schema to this tree's and to the log's head, then
    VACUUM ANALYZE, as a deployment's autovacuum would have (the aged
    database may have been built by an older tree; an index the views
    gained since is built here, before anything is measured)."""
    import psycopg

    from services.ledger.application import GameLedger
    from services.runtime.bootstrap import view_runners

    app = GameLedger(dict(es_env))
    try:
        for runner in view_runners(app.datastore):
            runner.ensure_tables()
            runner.catch_up()
    finally:
        app.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def _per_database(
    url: str,
    info: dict[str, Any],
    sizes: AgedSizes,
    mix: Mix,
    workdir: Path,
    label: str,
) -> dict[str, Any]:
    from services.storage.database_env import eventsourcing_env

    es_env = eventsourcing_env(url, 4, pool_min=1)
    prepare(es_env, url)
    out: dict[str, Any] = {"built": info}
    out["storage"] = _storage(url)  # as built, before this run writes to it
    out["cold_load"] = cold_load(url, sizes.cold_games)
    out["dashboard"] = dashboard_pages(es_env, info["tournament_id"], sizes.repeats)
    server = procs.start_ledger_server(url, workdir, name=f"aged-{label}")
    try:
        out["reads"] = reads(server.target, url, sizes.repeats)
        out["s1"] = {
            name: [run(server, sizes, mix) for _ in range(sizes.s1_rounds)]
            for name, run in TRANSPORTS.items()
        }
    finally:
        server.stop()
    time.sleep(0.7)  # the statistics collector's flush (500 ms)
    out["churn_after_s1"] = churn(url)
    out["projection_rebuild"] = projection_rebuild(es_env, sizes.rebuild_budget_s)
    return out


def _ratio(young: Any, aged: Any) -> float | None:
    if not isinstance(young, int | float) or not isinstance(aged, int | float):
        return None
    return round(aged / young, 3) if young else None


def _mean(values: Any) -> float | None:
    """The mean of the figures measured (a window too short for a p99 has none)."""
    got = [v for v in values if isinstance(v, int | float)]
    return statistics.mean(got) if got else None


def compare(young: dict[str, Any], aged: dict[str, Any]) -> dict[str, Any]:
    """Aged / young for each headline figure, and whether the targets hold."""
    s1 = {}
    for name in TRANSPORTS:
        y = young["s1"][name]
        a = aged["s1"][name]
        ym = _mean(r["moves_per_s"] for r in y)
        am = _mean(r["moves_per_s"] for r in a)
        yp = _mean(r["submit_p99_ms"] for r in y)
        ap = _mean(r["submit_p99_ms"] for r in a)
        s1[name] = {
            "moves_per_s": [ym, am],
            "moves_per_s_ratio": _ratio(ym, am),
            "submit_p99_ms": [yp, ap],
            "submit_p99_ratio": _ratio(yp, ap),
            "within_10pct": None
            if None in (ym, am, yp, ap)
            else am >= 0.9 * ym and ap <= 1.1 * yp,  # type: ignore[operator]
        }
    pages_y = young["dashboard"]["pages"]
    pages_a = aged["dashboard"]["pages"]
    page_rows = {
        name: [pages_y.get(name, {}).get("p95_ms"), page.get("p95_ms")]
        for name, page in pages_a.items()
    }
    return {
        "s1": s1,
        "cold_load_p50_ms": [
            young["cold_load"]["load_ms"]["p50"],
            aged["cold_load"]["load_ms"]["p50"],
        ],
        "cold_load_ms_per_event": [
            young["cold_load"]["ms_per_event_median"],
            aged["cold_load"]["ms_per_event_median"],
        ],
        "dashboard_p95_ms": page_rows,
        "dashboard_met": aged["dashboard"]["met"],
        "reads_p95_ms": {
            k: [young["reads"][k].get("p95_ms"), v.get("p95_ms")]
            for k, v in aged["reads"].items()
            if isinstance(v, dict)
        },
        "projection_rebuild_whole_log_s": [
            young["projection_rebuild"]["total_s"],
            aged["projection_rebuild"]["total_s"],
        ],
        "bytes_per_event": [
            young["storage"]["bytes_per_event"],
            aged["storage"]["bytes_per_event"],
        ],
    }


def run(
    quick: bool,
    events: int | None = None,
    rebuild: bool = False,
    workdir: Path | None = None,
    sizes: AgedSizes | None = None,
) -> dict[str, Any]:
    """Build (or reuse) both databases, measure each, and compare."""
    sizes = sizes or (AGED_QUICK if quick else AGED_FULL)
    if events is not None:
        sizes = sizes.with_events(events)
    mix = setups.game_mix()
    own = workdir is None
    work = workdir or procs.make_workdir()
    try:
        with _young(sizes, mix) as (url, info):
            young = _per_database(url, info, sizes, mix, work, "young")
        with _aged(sizes, mix, rebuild) as (url, info):
            aged = _per_database(url, info, sizes, mix, work, "aged")
    finally:
        if own:
            import shutil

            shutil.rmtree(work, ignore_errors=True)
    return {
        "status": "ok",
        "sizes": vars(sizes),
        "young": young,
        "aged": aged,
        "compare": compare(young, aged),
    }


def run_alone(quick: bool, out_dir: str, events: int | None, rebuild: bool) -> Any:
    """``ledger bench --scenario aged``: this scenario alone, to aged.json and aged.md."""
    import os

    from bench.report import aged as aged_report
    from bench.runs import _out

    out = _out(out_dir, quick, keep_in_place=False)
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    started = time.perf_counter()
    section = run(quick, events, rebuild)
    section["scenario_s"] = round(time.perf_counter() - started, 1)
    section["environment"] = {
        **machine.environment(db.admin_url()),
        **quiet,
        "load_average": os.getloadavg(),
    }
    (out / "aged.json").write_text(json.dumps(section, indent=1, default=str) + "\n")
    (out / "aged.md").write_text(aged_report.markdown(section))
    print(f"[bench] wrote {out / 'aged.md'}", flush=True)
    return section
