"""``ledger bench``: the benchmark harness."""

from __future__ import annotations

import typer

from services.cli.root import app


@app.command()
def bench(
    quick: bool = typer.Option(
        False, "--quick", help="Tiny sizes: keeps the harness working in CI."
    ),
    out: str = typer.Option(
        "bench/results", help="Where JSON, markdown and PNG results go."
    ),
) -> None:
    """Run the benchmark harness (bench/): throughput, latency, rebuild, baselines."""
    from bench.harness import run_all

    run_all(quick=quick, out_dir=out)
