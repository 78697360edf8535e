"""One-time play links: a code that is exchanged once for a seat's cookie.

Why a code and not the seat token in the link: a link travels through chat
messages, mail, browser history and every proxy's access log.  The code in
``/play/enter/<code>`` is random (256 bits), is not the token, works once
and expires (:data:`TTL_SECONDS`), so a link read in a log or a history
after it was opened grants nothing.  The exchange sets the credential as an
HttpOnly cookie (:mod:`services.dashboard.play_guard`) and leaves the code's
URL at once.

Why in the dashboard process's memory and not in the database: a code lives
minutes, is minted by the dashboard that later redeems it (``POST
/play/links``, which ``ledger tournament my-games`` calls), and must never
sit in a table where the seat tokens are otherwise stored only hashed.  A
restarted dashboard forgets its codes: ``my-games`` prints fresh ones.
Several dashboards behind one address would each know only their own codes
(see docs/decisions.md, "Play in the browser").
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from uuid import UUID

#: How long a link works if nobody opens it.
TTL_SECONDS = 3600.0
#: Codes kept at most (the oldest are forgotten first).
CAPACITY = 20_000
#: Unredeemed codes one credential may hold: minting more forgets its own
#: oldest, never another player's (a token holder minting in a loop would
#: otherwise push every other link out of the book).
PER_CREDENTIAL = 8


@dataclass(frozen=True)
class Pass:
    """What a code opens: ``kind`` ``seat`` (one game) or ``player`` (a
    tournament player's games), the credential the cookie will hold, and the
    game or tournament it is for."""

    kind: str
    credential: str
    subject: UUID


class PassBook:
    """The codes minted and not yet redeemed (thread-safe)."""

    def __init__(
        self,
        ttl: float = TTL_SECONDS,
        capacity: int = CAPACITY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ttl = ttl
        self._capacity = capacity
        self._clock = clock
        self._lock = threading.Lock()
        self._codes: OrderedDict[bytes, tuple[float, Pass]] = OrderedDict()

    def mint(self, granted: Pass) -> str:
        """A new code for ``granted`` (only its digest is kept as the key);
        past :data:`PER_CREDENTIAL` codes of one credential, its oldest is
        forgotten."""
        code = secrets.token_urlsafe(32)
        with self._lock:
            self._forget_expired()
            mine = [
                key
                for key, (_, held) in self._codes.items()
                if held.credential == granted.credential
            ]
            for key in mine[: max(0, len(mine) - PER_CREDENTIAL + 1)]:
                del self._codes[key]
            while len(self._codes) >= self._capacity:
                self._codes.popitem(last=False)
            self._codes[_digest(code)] = (self._clock() + self._ttl, granted)
        return code

    def redeem(self, code: str) -> Pass | None:
        """What ``code`` opens, once: ``None`` if unknown, used or expired."""
        with self._lock:
            found = self._codes.pop(_digest(code), None)
        if found is None or found[0] < self._clock():
            return None
        return found[1]

    def _forget_expired(self) -> None:
        # one lifetime for every code: the oldest expire first
        now = self._clock()
        while self._codes and next(iter(self._codes.values()))[0] < now:
            self._codes.popitem(last=False)


def _digest(code: str) -> bytes:
    return hashlib.sha256(code.encode()).digest()
