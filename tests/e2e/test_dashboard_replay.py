"""The replay viewer steps with the keyboard and the slider; the audit badge and export work."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from google.protobuf import json_format

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rrpc
from tests.e2e.client import create, play_to_end
from tests.e2e.dashboard import screenshot

pytestmark = pytest.mark.e2e


def shown(page: Any) -> int:
    return int(page.locator("#replay").get_attribute("data-shown") or 0)


def test_a_finished_game_replays_frame_by_frame_with_arrow_keys_and_the_slider(
    grpc_server: Any, dashboard_url: str, page: Any
) -> None:
    table = create(
        grpc_server,
        "thalara",
        players=2,
        characters=["myrja", "canto"],
        player_ids=("rita", "sam"),
    )
    play_to_end(grpc_server, table, seed=5)
    frames = rrpc.ReplayServiceStub(grpc_server.channel).ListFrames(
        rpb.ListFramesRequest(game_id=table.game_id, page_size=500)
    )
    events = [f.event for f in frames.frames]
    head = len(events)
    assert head > 60  # more than one page of frames (50)

    page.goto(f"{dashboard_url}/games/{table.game_id}")
    page.wait_for_function(
        "() => document.getElementById('replay').dataset.shown === '1'"
    )
    assert page.locator("#frame-title").inner_text() == f"1. {events[0].type}"
    for expected in (2, 3, 4):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"() => document.getElementById('replay').dataset.shown === '{expected}'"
        )
    assert page.locator("#frame-title").inner_text() == f"4. {events[3].type}"
    payload = json_format.MessageToDict(events[3], preserving_proto_field_name=True)
    shown_payload = json.loads(page.locator("#frame-event").text_content() or "")
    assert shown_payload == {
        k: v for k, v in payload.get("payload", {}).items() if k != "@type"
    }
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "() => document.getElementById('replay').dataset.shown === '3'"
    )
    assert page.locator("#slider").input_value() == "3"
    page.keyboard.press("End")  # past the first page of frames: fetched on demand
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.shown === '{head}'"
    )
    assert page.locator("#frame-title").inner_text() == f"{head}. {events[-1].type}"
    page.locator("#slider").evaluate(
        "(s) => { s.value = 57; s.dispatchEvent(new Event('input')) }"
    )
    page.wait_for_function(
        "() => document.getElementById('replay').dataset.shown === '57'"
    )
    assert page.locator("#frame-title").inner_text() == f"57. {events[56].type}"
    assert page.locator("#position").inner_text() == f"event 57 / {head}"
    screenshot(page, "replay")

    # the audit badge runs the audit on click
    page.locator("#audit-badge").click()
    result = page.locator("#audit-result")
    result.wait_for()
    classes = (result.get_attribute("class") or "").split()
    assert "ok" in classes and "fail" not in classes
    text = result.inner_text()
    assert "Audit OK" in text and "hash chain" in text and "seed" in text
    assert f"{head} events linked" in text
    screenshot(page, "audit", full_page=False)

    # the export link downloads the NDJSON export
    href = page.locator("#export-link").get_attribute("href")
    with urllib.request.urlopen(dashboard_url + href) as response:
        lines = response.read().decode().splitlines()
    header = json.loads(lines[0])
    assert header["kind"] == "header" and header["game_id"] == table.game_id
    kinds = [json.loads(line)["kind"] for line in lines]
    assert header["events"] == head and kinds.count("event") == head
    assert "seed" in kinds


def test_the_audit_badge_names_the_check_an_altered_row_fails(
    grpc_server: Any, dashboard_url: str, superuser: Any, page: Any
) -> None:
    table = create(grpc_server, "terralore", players=2)
    play_to_end(grpc_server, table, seed=2)
    (state,) = superuser.execute(
        "SELECT state FROM ledger_events WHERE originator_id = %s AND originator_version = 2",
        (table.game_id,),
    ).fetchone()
    record = json.loads(bytes(state))
    record["timestamp"] = record["timestamp"].replace("20", "19", 1)  # back-dated
    with superuser.transaction():  # a DBA bypassing the append-only trigger
        superuser.execute("SET LOCAL session_replication_role = replica")
        superuser.execute(
            "UPDATE ledger_events SET state = %s WHERE originator_id = %s AND originator_version = 2",
            (json.dumps(record).encode(), table.game_id),
        )
    page.goto(f"{dashboard_url}/games/{table.game_id}")
    page.locator("#audit-badge").click()
    result = page.locator("#audit-result")
    result.wait_for()
    assert "fail" in (result.get_attribute("class") or "").split()
    assert "Audit FAILED" in result.inner_text()
    assert "✘ hash chain" in result.inner_text()
    assert "event 2: hash" in result.locator(".failures").inner_text()


def test_the_audit_badge_requires_the_ledger_signed_final_head(
    grpc_server: Any, dashboard_url: str, superuser: Any
) -> None:
    """The badge runs ``ledger verify --public-key`` with the server's key: a
    finished game whose final receipt was deleted (what a rewrite of the
    ending must do) fails, though every remaining receipt still verifies."""
    import httpx

    table = create(grpc_server, "terralore", players=2)
    play_to_end(grpc_server, table, seed=5)
    audit = f"{dashboard_url}/games/{table.game_id}/audit"
    assert "Audit OK" in httpx.post(audit).text
    with superuser.transaction():  # a DBA bypassing the append-only trigger
        superuser.execute("SET LOCAL session_replication_role = replica")
        superuser.execute(
            "DELETE FROM ledger_receipts WHERE game_id = %s AND version ="
            " (SELECT max(version) FROM ledger_receipts WHERE game_id = %s)",
            (table.game_id, table.game_id),
        )
    answer = httpx.post(audit).text
    assert "Audit FAILED" in answer and "✘ signed head" in answer


def test_a_page_of_frames_is_the_log_and_one_frame_carries_its_board(
    grpc_server: Any, dashboard_url: str
) -> None:
    """The viewer's page of 25 frames brings sentences, not 25 drawn boards;
    the frame it shows comes whole, as ``ListFrames`` answers a spectator."""
    import httpx

    table = create(grpc_server, "thorgal", players=2)
    play_to_end(grpc_server, table, seed=3)
    listed = rrpc.ReplayServiceStub(grpc_server.channel).ListFrames(
        rpb.ListFramesRequest(game_id=table.game_id, page_size=500)
    )
    # a long Thorgal game runs past one page of 500: its head is the game's
    head = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id)
    ).game.version
    assert len(listed.frames) == min(head, 500) > 30

    base = f"{dashboard_url}/games/{table.game_id}/frames"
    paged = httpx.get(f"{base}?after=0&limit=25").json()
    assert [int(f["event"]["version"]) for f in paged["frames"]] == list(range(1, 26))
    for f in paged["frames"]:
        assert f["sentence"] and "board" not in f and "view" not in f, f.keys()

    for version in (1, 17, len(listed.frames)):
        (whole,) = httpx.get(f"{base}/{version}").json()["frames"]
        expected = json_format.MessageToDict(
            listed.frames[version - 1], preserving_proto_field_name=True
        )
        assert whole["event"] == expected["event"]
        assert whole["view"] == expected["view"]
        assert "<svg" in whole["board"]
        if version <= 25:
            assert whole["sentence"] == paged["frames"][version - 1]["sentence"]
    assert httpx.get(f"{base}/{head + 1}").json()["frames"] == []
