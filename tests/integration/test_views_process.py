"""The views' child process of ``ledger serve``: follows the log, stops with its parent."""

from __future__ import annotations

import random
import uuid

from domain.games import find_game
from services.runtime import views_process
from services.runtime.bootstrap import build_ledger, view_runners
from tests.support.database import scratch_database
from tests.support.server import wait_until


def play_one_game(ledger) -> None:
    ruleset, rnd = find_game("terralore"), random.Random(3)
    created = ledger.create_game(
        "terralore", ruleset.setup_model.model_validate({"players": 2})
    )
    while not (game := ledger.load(created.game_id)).is_over:
        seat = rnd.choice(game.to_act())
        ledger.submit(
            created.game_id,
            ruleset.random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )


def test_the_child_applies_the_log_and_stops_when_told(server_url, settings):
    with scratch_database(server_url) as url:
        ledger = build_ledger(settings, url)
        child = None
        try:
            runners = view_runners(ledger.datastore)
            for runner in runners:
                runner.ensure_tables()
            child = views_process.start(settings, url)
            play_one_game(ledger)
            child.wake.set()
            wait_until(
                lambda: all(r.status().lag == 0 for r in runners),
                "every view caught up in the child",
                timeout=60,
            )
            views_process.stop(child)
            assert child.process.exitcode == 0  # SIGTERM: a clean stop
        finally:
            if child is not None and child.process.is_alive():
                child.process.kill()
            ledger.close()


def test_the_child_exits_by_itself_when_its_parent_is_gone(server_url, settings):
    import multiprocessing

    with scratch_database(server_url) as url:
        context = multiprocessing.get_context("spawn")
        payload = settings.model_copy(update={"database_url": url})
        wake = context.Event()  # held here until the child has it
        orphan = context.Process(  # told its parent is a process that is not
            target=views_process.run,
            args=(
                payload.model_dump_json(exclude={"admin_token"}),
                -1,
                wake,
            ),
        )
        orphan.start()
        orphan.join(60)
        alive = orphan.is_alive()
        if alive:
            orphan.kill()
        assert not alive and orphan.exitcode == 0
