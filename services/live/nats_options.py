"""How a server connects to NATS: credentials and TLS, from settings.

Why the bus needs both although records travel sealed
(:mod:`services.live.sealed_records`): credentials keep strangers from
publishing junk or reading timing, TLS keeps the credentials themselves and
the traffic's shape off the network.  Each option maps onto one argument
of ``nats.connect``; the NATS server decides which it requires.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class NatsOptions:
    user: str | None = None
    password: str | None = None
    creds_file: Path | None = None
    """A ``.creds`` file (JWT and nkey seed), for operator/account mode."""
    nkey_seed_file: Path | None = None
    tls_ca: Path | None = None
    """CA bundle that signed the NATS server's certificate; set: TLS on."""
    tls_cert: Path | None = None
    tls_key: Path | None = None
    """Client certificate and key, when the NATS server verifies clients."""

    @classmethod
    def from_settings(cls, settings: Any) -> NatsOptions:
        password = getattr(settings, "nats_password", None)
        return cls(
            user=getattr(settings, "nats_user", None),
            password=password.get_secret_value() if password is not None else None,
            creds_file=getattr(settings, "nats_creds_file", None),
            nkey_seed_file=getattr(settings, "nats_nkey_seed_file", None),
            tls_ca=getattr(settings, "nats_tls_ca", None),
            tls_cert=getattr(settings, "nats_tls_cert", None),
            tls_key=getattr(settings, "nats_tls_key", None),
        )

    def connect_arguments(self, url: str) -> dict[str, Any]:
        """Keyword arguments for ``nats.connect`` (the URL may also carry user:password)."""
        arguments: dict[str, Any] = {}
        if self.user is not None:
            arguments["user"] = self.user
            arguments["password"] = self.password or ""
        if self.creds_file is not None:
            arguments["user_credentials"] = str(self.creds_file)
        if self.nkey_seed_file is not None:
            arguments["nkeys_seed"] = str(self.nkey_seed_file)
        if self.tls_ca is not None or url.startswith("tls://"):
            context = ssl.create_default_context(
                cafile=str(self.tls_ca) if self.tls_ca else None
            )
            if self.tls_cert is not None:
                context.load_cert_chain(
                    str(self.tls_cert), str(self.tls_key) if self.tls_key else None
                )
            arguments["tls"] = context
        return arguments


def reason(exc: BaseException) -> str:
    """Why a NATS call failed, in words: nats-py's errors often print empty."""
    text = str(exc).strip()
    name = type(exc).__name__
    if not text or text == "nats: ":
        return name
    return text if name in text else f"{name}: {text}"
