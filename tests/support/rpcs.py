"""Every RPC the server exposes, read from the service descriptors.

Tests that must cover "every RPC" (malformed bytes, the fuzzer) enumerate
them here, so an RPC added to a ``.proto`` is covered without editing a test.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any

from google.protobuf import message_factory
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2

import ledger.v1


@dataclass(frozen=True)
class Method:
    service: str
    name: str
    request: type[Any]
    response: type[Any]
    client_streaming: bool
    server_streaming: bool

    @property
    def path(self) -> str:
        return f"/{self.service}/{self.name}"


def _service_modules() -> list[Any]:
    modules = [
        importlib.import_module(f"ledger.v1.{info.name}")
        for info in pkgutil.iter_modules(ledger.v1.__path__)
        if info.name.endswith("_pb2")
    ]
    return [*modules, health_pb2, reflection_pb2]


def all_methods() -> list[Method]:
    """Every method of every service the server registers, in a stable order."""
    found = []
    for module in _service_modules():
        for service in module.DESCRIPTOR.services_by_name.values():
            for m in service.methods:
                found.append(
                    Method(
                        service.full_name,
                        m.name,
                        message_factory.GetMessageClass(m.input_type),
                        message_factory.GetMessageClass(m.output_type),
                        m.client_streaming,
                        m.server_streaming,
                    )
                )
    return sorted(found, key=lambda m: m.path)
