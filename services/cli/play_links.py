"""One-time links to play in the browser, asked of the dashboard.

Why the dashboard mints them (``POST /play/links`` with the token as a
bearer header): a link's code works once and only at the dashboard that
minted it (:mod:`services.dashboard.play_passes`), and the token itself
never goes into a URL.  Where the dashboard is: ``--web`` /
``LEDGER_WEB_URL``, else the one a server on this machine announced in
``server.json``, else ``LEDGER_HTTP_LISTEN``'s address.
"""

from __future__ import annotations

WEB_HELP = (
    "The dashboard's URL, for play links (default: the local server's, from"
    " server.json, else LEDGER_HTTP_LISTEN)."
)


def dashboard_url(explicit: str | None) -> str:
    """Where the dashboard answers, without a trailing slash."""
    from services.cli import locate
    from services.runtime.settings import Settings

    if explicit:
        return explicit.rstrip("/")
    settings = Settings()
    announced = locate.announced_dashboard(settings.data_dir)
    if announced:
        return announced.rstrip("/")
    scheme = "https" if settings.http_tls else "http"
    return f"{scheme}://{locate.connectable(settings.http_listen)}"


def link(base: str, token: str, subject: dict[str, str]) -> str | None:
    """A one-time link opening ``subject`` (``{"game_id": ...}`` with a seat
    token, ``{"tournament_id": ...}`` with a player token); ``None`` when
    the dashboard does not answer or refuses."""
    import httpx

    try:
        answer = httpx.post(
            f"{base}/play/links",
            json=subject,
            headers={"authorization": f"Bearer {token}"},
            timeout=10,
        )
    except httpx.HTTPError:
        return None
    if answer.status_code != 200:
        return None
    return base + str(answer.json()["path"])
