"""Service settings, from ``LEDGER_*`` environment variables or a ``.env`` file.

With no ``LEDGER_DATABASE_URL`` the service starts an embedded PostgreSQL
(the ``pgserver`` package) in ``LEDGER_DATA_DIR``, so ``ledger serve`` works
on a fresh machine; point it at a real server for anything that matters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import (
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.runtime import placeholders


def default_data_dir() -> Path:
    """One directory per user, wherever the command runs (not ``./``)."""
    from platformdirs import user_data_path

    return user_data_path("game-ledger", appauthor=False)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="LEDGER_",
        env_file=".env",
        extra="ignore",
        use_attribute_docstrings=True,  # each field's docstring is its description
    )

    database_url: str | None = None
    """libpq URL, e.g. postgresql://ledger:secret@db:5432/ledger. Unset: embedded
    PostgreSQL in data_dir."""

    read_database_url: str | None = None
    """A streaming replica for the read side (ratings, stats, the dashboard); reads with
    min_log_position wait for the replica's views. Unset: the primary."""

    nats_url: str | None = None
    """NATS with JetStream (nats://host:4222): committed events are published per game
    and live streams on every server read them from there. Unset: in-process fan-out."""

    nats_user: str | None = None
    """NATS user name (with nats_password); or use nats_creds_file or
    nats_nkey_seed_file. The NATS server should require one of them."""

    nats_password: SecretStr | None = None
    """NATS password."""

    nats_creds_file: Path | None = None
    """NATS credentials file (JWT + nkey seed)."""

    nats_nkey_seed_file: Path | None = None
    """NATS nkey seed file."""

    nats_tls_ca: Path | None = None
    """CA bundle for the NATS server's certificate: set, the connection uses TLS (so
    does a tls:// URL, with the system CAs)."""

    nats_tls_cert: Path | None = None
    """Client certificate for NATS (mutual TLS)."""

    nats_tls_key: Path | None = None
    """Key of nats_tls_cert."""

    data_dir: Path = Field(default_factory=default_data_dir)
    """Embedded database, admin token and the running server's address. Default: the
    user data dir (e.g. ~/.local/share/game-ledger)."""

    listen: str = "127.0.0.1:50051"
    """gRPC listen address."""

    http_listen: str = "127.0.0.1:8080"
    """Web dashboard address (host:port), served by `ledger serve`; 'off' disables
    it."""

    admin_token: SecretStr | None = None
    """Bearer token with full access. Unset: generated on first start and written to
    data_dir/admin-token."""

    pool_size: int = Field(default=16, ge=1, le=200)
    """Most connections each database pool opens under load."""

    pool_min: int = Field(default=0, ge=0, le=200)
    """Connections each pool keeps open when idle. 0: open on first use (an idle server
    then holds 5: one per pool, the LISTEN, the views' child); more than 0 makes
    psycopg_pool grow past it at start, while the first ones connect."""

    signing_key: SecretStr | None = None
    """Ed25519 private key (32 bytes, hex) that signs receipts. Unset: signing_key_file,
    else generated on first start and kept in data_dir/signing-key (never in the
    database; one host only)."""

    signing_key_file: Path | None = None
    """A file holding the signing key (hex or PEM), e.g. a mounted secret: every server
    of a deployment must sign with the same key (docs/scale-out.md)."""

    keyring: str | None = None
    """Earlier receipt keys, JSON: [{"public_key": hex, "not_before": time, "not_after":
    time}]; receipts they signed inside their window keep verifying after a rotation
    (docs/guarantees.md)."""

    cache_size: int = Field(default=2000, ge=1)
    """Games kept in memory (LRU)."""

    snapshot_interval: int = Field(default=50, ge=2)
    """Snapshot every N events."""

    metrics_port: int | None = None
    """Prometheus /metrics port."""

    workers: int = Field(default=1, ge=1, le=64)
    """Server processes sharing the port (SO_REUSEPORT); the supervisor runs the
    projections."""

    projections: bool = True
    """Run the projection views inside `ledger serve` (else run `ledger project`)."""

    views: Literal["child", "in-process", "off"] = "child"
    """Where `ledger serve` runs the views: a child process it starts and stops (keeps
    their CPU off the serving process), its own process, or not at all."""

    health_interval: float = Field(default=1.0, gt=0, le=60)
    """Seconds between database probes: grpc.health.v1 reports NOT_SERVING (and calls
    fail fast with UNAVAILABLE) while PostgreSQL is unreachable."""

    db_wait_seconds: float = Field(default=3.0, gt=0, le=60)
    """Longest a call waits for PostgreSQL during an outage before it is answered
    UNAVAILABLE with RetryInfo (also the wait for a pooled connection), and longest
    the health probe waits for its SELECT 1: a database that hangs is declared
    unreachable after it (plus a reconnect's 2 s), and the calls waiting on it are
    cut."""

    streams_per_connection: int = Field(default=32, ge=1, le=10_000)
    """Concurrent server streams one client connection may hold; more are refused with
    RESOURCE_EXHAUSTED (docs/limits.md)."""

    pending_calls: int = Field(default=10_000, ge=100, le=1_000_000)
    """Calls the transport has received that the server has not started yet (a burst of
    spectators opening streams at once). grpc core's default is 1,000, beyond which
    it cancels new calls with CANCELLED, which a client cannot tell from its own
    cancellation (docs/limits.md)."""

    drain_seconds: float = Field(default=10.0, ge=0, le=600)
    """On SIGTERM: health NOT_SERVING, new calls and live streams end with UNAVAILABLE
    (retry elsewhere), and the calls in flight get this long to finish."""

    grpc_tls_cert: Path | None = None
    """PEM certificate (chain) gRPC serves TLS with; with grpc_tls_key. Unset:
    plaintext."""

    grpc_tls_key: Path | None = None
    """PEM private key of grpc_tls_cert."""

    grpc_tls_client_ca: Path | None = None
    """PEM CA bundle: clients must present a certificate it signed (mutual TLS)."""

    grpc_tls_ca: Path | None = None
    """For the CLI: PEM CA bundle that signed the server's certificate; set, the CLI
    speaks TLS. Unset with grpc_tls_cert set: that certificate is trusted."""

    grpc_tls_client_cert: Path | None = None
    """For the CLI: PEM certificate it presents (mutual TLS); with
    grpc_tls_client_key."""

    grpc_tls_client_key: Path | None = None
    """PEM private key of grpc_tls_client_cert."""

    grpc_tls_server_name: str | None = None
    """For the CLI: the name the server's certificate must carry, when the address
    dialled is not in it (e.g. 127.0.0.1 for ledger.example.org)."""

    http_tls_cert: Path | None = None
    """PEM certificate (chain) the dashboard serves HTTPS with; with http_tls_key."""

    http_tls_key: Path | None = None
    """PEM private key of http_tls_cert."""

    create_tables: bool = True
    """Create tables, triggers and functions at start. False: do no DDL at all, for a
    service role that does not own the schema (the owner runs `ledger db setup`
    first)."""

    checkpoint_interval: float = Field(default=60.0, ge=0, le=86400)
    """Seconds between signed checkpoints over every game's head (one is also signed at
    every game end); 0: only at game ends."""

    timekeeper_interval: float = Field(default=1.0, ge=0, le=60)
    """Seconds between the timekeeper's sweeps for games whose clock ran out (one server
    sweeps at a time); 0: this server never sweeps."""

    round_scheduler_interval: float = Field(default=1.0, ge=0, le=60)
    """Seconds between sweeps for tournament rounds that start by themselves (one server
    sweeps at a time); 0: this server never starts them."""

    @field_validator(
        "grpc_tls_cert",
        "grpc_tls_key",
        "grpc_tls_client_ca",
        "grpc_tls_ca",
        "grpc_tls_client_cert",
        "grpc_tls_client_key",
        "http_tls_cert",
        "http_tls_key",
        mode="before",
    )
    @classmethod
    def _tls_file(cls, value: Any, info: ValidationInfo) -> Any:
        """One clear line for a TLS setting that names no file: an empty
        variable became ``Path("")``, the current directory, and failed much
        later as "error: .: Is a directory"."""
        name = f"LEDGER_{(info.field_name or '').upper()}"
        if value is None:
            return None
        if isinstance(value, str | Path) and not str(value).strip():
            raise ValueError(f"{name} is empty: unset it, or name a PEM file")
        if not Path(value).is_file():
            raise ValueError(f"{name}: {value} is not a file (a PEM file is expected)")
        return value

    @model_validator(mode="after")
    def _tls_pairs(self) -> Settings:
        if (self.grpc_tls_cert is None) != (self.grpc_tls_key is None):
            raise ValueError(
                "set LEDGER_GRPC_TLS_CERT and LEDGER_GRPC_TLS_KEY together"
            )
        if (self.http_tls_cert is None) != (self.http_tls_key is None):
            raise ValueError(
                "set LEDGER_HTTP_TLS_CERT and LEDGER_HTTP_TLS_KEY together"
            )
        if (self.grpc_tls_client_cert is None) != (self.grpc_tls_client_key is None):
            raise ValueError(
                "set LEDGER_GRPC_TLS_CLIENT_CERT and LEDGER_GRPC_TLS_CLIENT_KEY together"
            )
        if self.grpc_tls_client_ca is not None and self.grpc_tls_cert is None:
            raise ValueError(
                "LEDGER_GRPC_TLS_CLIENT_CA needs LEDGER_GRPC_TLS_CERT and _KEY"
            )
        return self

    @field_validator("admin_token", "signing_key", "nats_password")
    @classmethod
    def _no_placeholder_secret(
        cls, value: SecretStr | None, info: ValidationInfo
    ) -> SecretStr | None:
        if value is not None:
            name = f"LEDGER_{(info.field_name or '').upper()}"
            placeholders.refuse_placeholder(value.get_secret_value(), name)
        return value

    @field_validator("nats_url")
    @classmethod
    def _no_placeholder_in_nats_url(cls, value: str | None) -> str | None:
        if value:
            placeholders.refuse_placeholder_in_urls(value, "LEDGER_NATS_URL")
        return value

    @field_validator("database_url", "read_database_url")
    @classmethod
    def _no_placeholder_password(
        cls, value: str | None, info: ValidationInfo
    ) -> str | None:
        if value:
            name = f"LEDGER_{(info.field_name or '').upper()}"
            placeholders.refuse_placeholder_password(value, name)
        return value

    @property
    def http_tls(self) -> tuple[Path, Path] | None:
        """The dashboard's (certificate, key), or None for plain HTTP."""
        if self.http_tls_cert is None or self.http_tls_key is None:
            return None
        return self.http_tls_cert, self.http_tls_key

    @property
    def views_mode(self) -> Literal["child", "in-process", "off"]:
        """Where the views run: ``views``, or ``off`` when ``projections`` is false."""
        return self.views if self.projections else "off"
