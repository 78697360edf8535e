"""A client that knows nothing but the server's address (run in its own process).

It imports no ``ledger`` module: every message it uses comes from server
reflection, as for grpcurl or a client in another language.  Prints, as
JSON, the fields of every message ``ListGameTypes`` names, and what the
reflection v1 service lists.  Usage: ``python -I reflection_only_client.py HOST:PORT``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import grpc
from google.protobuf import descriptor_pool, message_factory
from grpc_reflection.v1alpha import reflection_pb2 as wire
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

KINDS = ("setup_message", "move_message", "event_message", "view_message")


def main(target: str) -> None:
    channel = grpc.insecure_channel(target)
    pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
    method = pool.FindServiceByName("ledger.v1.GameService").methods_by_name[
        "ListGameTypes"
    ]
    request_cls = message_factory.GetMessageClass(method.input_type)
    response_cls = message_factory.GetMessageClass(method.output_type)
    call = channel.unary_unary(
        "/ledger.v1.GameService/ListGameTypes",
        request_serializer=request_cls.SerializeToString,
        response_deserializer=response_cls.FromString,
    )
    messages = {}
    # a class built from reflection: its fields are unknown until run time
    response: Any = call(request_cls(), timeout=10)
    for game_type in response.game_types:
        for kind in KINDS:
            name = getattr(game_type, kind)
            fields = pool.FindMessageTypeByName(name).fields
            messages[name] = [f.name for f in fields]
    # reflection v1 speaks the v1alpha messages under another service name
    v1 = channel.stream_stream(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        request_serializer=wire.ServerReflectionRequest.SerializeToString,
        response_deserializer=wire.ServerReflectionResponse.FromString,
    )
    answers = list(
        v1(
            iter(
                [
                    wire.ServerReflectionRequest(list_services=""),
                    wire.ServerReflectionRequest(
                        file_containing_symbol="ledger.v1.thalara.ThalaraSetup"
                    ),
                ]
            ),
            timeout=10,
        )
    )
    print(
        json.dumps(
            {
                "messages": messages,
                "v1_services": [
                    s.name for s in answers[0].list_services_response.service
                ],
                "v1_files": len(
                    answers[1].file_descriptor_response.file_descriptor_proto
                ),
                "imported_ledger": sorted(
                    m for m in sys.modules if m.startswith("ledger")
                ),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
