"""What an audit found: the report every audit step writes into.

Why its own module: the chain, signature and decision checks each add
failures to one report, and the CLI, the export and the receipt check read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class AuditFailure:
    version: int
    check: str
    detail: str

    def __str__(self) -> str:
        return f"event {self.version}: {self.check}: {self.detail}"


@dataclass
class AuditReport:
    game_id: str
    game_type: str = "?"
    events: int = 0
    decisions_rederived: int = 0
    signatures_verified: int = 0
    receipts_verified: int = 0
    ruleset_version: int = 1
    seed_source: str = "none"
    concluded: bool = False
    failures: list[AuditFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, version: int, check: str, detail: str) -> None:
        self.failures.append(AuditFailure(version, check, detail))
