"""Service settings, from ``LEDGER_*`` environment variables or a ``.env`` file.

With no ``LEDGER_DATABASE_URL`` the service starts an embedded PostgreSQL
(the ``pgserver`` package) in ``LEDGER_DATA_DIR``, so ``ledger serve`` works
on a fresh machine; point it at a real server for anything that matters.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LEDGER_", env_file=".env", extra="ignore")

    database_url: str | None = Field(
        default=None,
        description="libpq URL, e.g. postgresql://ledger:secret@db:5432/ledger. "
        "Unset: embedded PostgreSQL in data_dir.",
    )
    data_dir: Path = Field(default=Path(".ledger-data"), description="Embedded database and admin token.")
    listen: str = Field(default="127.0.0.1:50051", description="gRPC listen address.")
    admin_token: SecretStr | None = Field(
        default=None,
        description="Bearer token with full access. Unset: generated on first start "
        "and written to data_dir/admin-token.",
    )
    pool_size: int = Field(default=8, ge=1, le=200)
    cache_size: int = Field(default=2000, ge=1, description="Games kept in memory (LRU).")
    snapshot_interval: int = Field(default=50, ge=2, description="Snapshot every N events.")
    metrics_port: int | None = Field(default=None, description="Prometheus /metrics port.")
    workers: int = Field(
        default=1, ge=1, le=64,
        description="Server processes sharing the port (SO_REUSEPORT); the supervisor runs the projections.",
    )
    projections: bool = Field(
        default=True, description="Run the projection views inside `ledger serve` (else run `ledger project`)."
    )
    create_tables: bool = Field(
        default=True,
        description="Create tables, triggers and functions at start. False: do no DDL at all, for a "
        "service role that does not own the schema (the owner runs `ledger db setup` first).",
    )
