"""Refuse the placeholder secrets that ship in the deployment files.

Why: ``deploy/k8s/secrets.yaml`` and ``deploy/ledger.env.example`` ship
``CHANGE-ME...`` values for the operator to replace (the admin token, the
signing key, the database and NATS passwords).  Applied unchanged, the
admin token would be a string anyone can read on GitHub, and a database
password the same on every install.  A server refuses to start on one rather
than run with it.  The signing key placeholder is refused anyway (it is not
64 hex characters).
"""

from __future__ import annotations

import re

from psycopg.conninfo import conninfo_to_dict

PLACEHOLDER = re.compile(r"change[-_ ]?me|replace[-_ ]?me", re.IGNORECASE)
"""What the shipped files put where a secret goes (``CHANGE-ME...``)."""


def refuse_placeholder(value: str, setting: str) -> str:
    """``value`` unchanged, unless it is a placeholder.

    :raises ValueError: naming ``setting`` (never the value).
    """
    if PLACEHOLDER.search(value):
        raise ValueError(
            f"{setting} is still the placeholder from the deployment files: "
            "set a real secret"
        )
    return value


def refuse_placeholder_password(url: str, setting: str) -> str:
    """A libpq URL unchanged, unless its password is a placeholder.

    :raises ValueError: naming ``setting`` (never the password).
    """
    try:
        password = conninfo_to_dict(url).get("password") or ""
    except Exception:  # noqa: BLE001 - a malformed URL is libpq's to report, at connect
        return url
    refuse_placeholder(str(password), f"the password in {setting}")
    return url


def refuse_placeholder_in_urls(urls: str, setting: str) -> str:
    """URLs (comma-separated, as a NATS cluster is named) unchanged, unless
    one carries a placeholder password (``nats://user:CHANGE-ME@host``).

    :raises ValueError: naming ``setting`` (never the password).
    """
    from urllib.parse import urlsplit

    for url in urls.split(","):
        try:
            password = urlsplit(url.strip()).password or ""
        except ValueError:  # a malformed URL is the client's to report, at connect
            continue
        refuse_placeholder(password, f"the password in {setting}")
    return urls
