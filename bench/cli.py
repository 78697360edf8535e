"""``ledger bench``: a plugin command, so the service never imports its benchmark.

``pyproject.toml`` names :func:`register` under the ``ledger.commands`` entry
point group; ``services/cli/__init__.py`` discovers that group with
``importlib.metadata``.  The import direction stays bench -> services.
"""

from __future__ import annotations

import typer

SCENARIOS = (
    "all",
    "subscribers",
    "profile",
    "memory",
    "dashboard",
    "ladder",
    "sessions",
    "aged",
)


def bench(
    quick: bool = typer.Option(
        False, "--quick", help="Tiny sizes: keeps the harness working in CI."
    ),
    out: str = typer.Option(
        "bench/results", help="Where JSON, markdown and PNG results go."
    ),
    scenario: str = typer.Option(
        "all",
        "--scenario",
        help=(
            "all: every scenario; subscribers: live subscribers across 3 servers "
            "(scenario 9); profile: only the py-spy CPU split per layer; memory: only "
            "scenario 6 (RSS with 10,000 open games), to memory.json; dashboard: only "
            "scenario 8 (dashboard pages at 10,000 finished games), to "
            "dashboard.json; ladder: only "
            "the cost ladder (scenario 1 against servers built up layer by layer), "
            "to ladder.json/.md/.png; sessions: scenario 1 over unary calls and over "
            "seat sessions, the peer and the peer's game, to sessions.json/.md; aged: "
            "only the aged-log scenario (a young and "
            "an aged database side by side), to aged.json/.md."
        ),
    ),
    profile_only: bool = typer.Option(
        False,
        "--profile-only",
        help="Same as --scenario profile: py-spy the server under scenario 1 at 1 and 32 clients.",
    ),
    aged_events: int = typer.Option(
        0,
        "--aged-events",
        min=0,
        help=(
            "Events in the aged database (0: 5,000,000, or 20,000 with --quick). "
            "Built once, cached as the database ledger_bench_aged_<key>."
        ),
    ),
    rebuild_aged: bool = typer.Option(
        False,
        "--rebuild-aged",
        help="Drop the cached aged database and build it again.",
    ),
    label: str = typer.Option(
        "",
        "--label",
        help="With --profile-only: also write <out>/profile-<label>.json (e.g. before, after).",
    ),
) -> None:
    """Run the benchmark harness (bench/): throughput, latency, rebuild, baselines."""
    if profile_only:
        scenario = "profile"
    if scenario not in SCENARIOS:
        raise typer.BadParameter(
            f"unknown scenario {scenario!r}; one of {', '.join(SCENARIOS)}",
            param_hint="--scenario",
        )
    from bench.harness import run_all
    from bench.runs import (
        run_dashboard,
        run_memory,
        run_profile_only,
        run_sessions,
        run_subscribers,
    )

    if scenario == "profile":
        run_profile_only(quick=quick, out_dir=out, label=label or None)
    elif scenario == "ladder":
        from bench.ladder import run_alone

        run_alone(quick=quick, out_dir=out)
    elif scenario == "aged":
        from bench.aged import run_alone as run_aged

        run_aged(quick, out, aged_events or None, rebuild_aged)
    elif scenario == "memory":
        run_memory(quick=quick, out_dir=out)
    elif scenario == "dashboard":
        run_dashboard(quick=quick, out_dir=out)
    elif scenario == "sessions":
        run_sessions(quick=quick, out_dir=out)
    elif scenario == "subscribers":
        run_subscribers(quick=quick, out_dir=out)
    else:
        run_all(
            quick=quick,
            out_dir=out,
            aged_events=aged_events or None,
            rebuild_aged=rebuild_aged,
        )


def register(app: typer.Typer) -> None:
    """Entry point ``ledger.commands: bench``: add ``ledger bench`` to ``app``."""
    app.command(name="bench")(bench)
