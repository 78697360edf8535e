"""Server reflection, v1 and v1alpha, knowing every game's messages from the start.

Why this module: reflection answers from the process's default descriptor
pool, and a game's ``ledger.v1.<game>`` messages only enter that pool when its
generated module is imported.  The servicers import them lazily, so on a
fresh server ``grpcurl describe ledger.v1.thalara.ThalaraSetup`` failed until
someone made a first call.  :func:`enable` imports every registered game's
stubs before the server starts.

``grpcio-reflection`` ships only the ``grpc.reflection.v1alpha`` service,
while current grpcurl, grpc-js and Go clients ask ``grpc.reflection.v1``
first.  The two protocols are the same messages under another package name,
so v1 is served by the same servicer: its file descriptor is the v1alpha one
renamed (so ``describe grpc.reflection.v1.ServerReflection`` works too), and
its handler (de)serialises with the v1alpha classes, which are
wire-identical.
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection
from grpc_reflection.v1alpha import reflection_pb2 as v1alpha

from domain.games import all_games
from services.proto import convert

V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
_V1_FILE = "grpc/reflection/v1/reflection.proto"


def _register_v1_descriptor() -> None:
    """Add ``grpc/reflection/v1/reflection.proto`` to the default pool (once)."""
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(_V1_FILE)
        return
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    v1alpha.DESCRIPTOR.CopyToProto(proto)
    old, new = ".grpc.reflection.v1alpha.", ".grpc.reflection.v1."
    proto.name, proto.package = _V1_FILE, "grpc.reflection.v1"
    proto.ClearField("options")
    for message in proto.message_type:
        for field in message.field:
            if field.type_name.startswith(old):
                field.type_name = new + field.type_name[len(old) :]
    for service in proto.service:
        for method in service.method:
            method.input_type = new + method.input_type[len(old) :]
            method.output_type = new + method.output_type[len(old) :]
    pool.Add(proto)


def import_every_game() -> None:
    """Put every registered game's messages into the default descriptor pool."""
    for game in all_games():
        for kind in ("Move", "Event", game.setup_model.__name__):
            convert.message_class(f"{game.proto_package}.{kind}")


def enable(server: grpc.aio.Server, service_names: tuple[str, ...]) -> None:
    """Serve reflection v1 and v1alpha for ``service_names`` on ``server``."""
    import_every_game()
    _register_v1_descriptor()
    names = (*service_names, reflection.SERVICE_NAME, V1_SERVICE_NAME)
    servicer: Any = reflection.aio.ReflectionServicer(names)
    reflection.enable_server_reflection(names, server)
    server.add_generic_rpc_handlers(
        (
            grpc.method_handlers_generic_handler(
                V1_SERVICE_NAME,
                {
                    "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
                        servicer.ServerReflectionInfo,
                        request_deserializer=v1alpha.ServerReflectionRequest.FromString,
                        response_serializer=v1alpha.ServerReflectionResponse.SerializeToString,
                    )
                },
            ),
        )
    )
