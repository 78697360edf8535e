"""``python -m services.runtime.health_probe``: exit 0 if a ledger server answers SERVING
(or, with ``--http URL``, if a health page answers 200).

Why our own client rather than ``grpc_health_probe``: the image then needs no
extra binary, and the check is the same ``grpc.health.v1`` call Kubernetes'
native gRPC probe makes (``deploy/k8s/ledger.yaml``).  Used by the
Dockerfile's ``HEALTHCHECK``; one line on stdout, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def channel_for(
    target: str,
    ca: str | None = None,
    cert: str | None = None,
    key: str | None = None,
) -> grpc.Channel:
    """Plaintext, or TLS trusting ``ca`` (with ``cert``/``key``: mutual TLS)."""
    if ca is None:
        return grpc.insecure_channel(target)
    credentials = grpc.ssl_channel_credentials(
        root_certificates=Path(ca).read_bytes(),
        private_key=Path(key).read_bytes() if key else None,
        certificate_chain=Path(cert).read_bytes() if cert else None,
    )
    return grpc.secure_channel(target, credentials)


def check(
    target: str,
    service: str = "",
    timeout: float = 3.0,
    channel: grpc.Channel | None = None,
) -> tuple[bool, str]:
    """``(serving, what was seen)`` for ``service`` ("" = the whole server)."""
    with channel or grpc.insecure_channel(target) as opened:
        stub = health_pb2_grpc.HealthStub(opened)
        try:
            answer = stub.Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
        except grpc.RpcError as exc:
            return False, f"{target}: {exc.code().name} {exc.details() or ''}".strip()
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
    return (
        answer.status == health_pb2.HealthCheckResponse.SERVING,
        f"{target}: {status}",
    )


def check_http(url: str, timeout: float = 3.0) -> tuple[bool, str]:
    """``(answered 200, what was seen)`` for an HTTP health page (``/healthz``)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status == 200, f"{url}: {answer.status}"
    except urllib.error.HTTPError as exc:
        return False, f"{url}: {exc.code} {exc.read().decode(errors='replace').strip()}"
    except (urllib.error.URLError, OSError) as exc:
        return False, f"{url}: {getattr(exc, 'reason', exc)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.runtime.health_probe")
    parser.add_argument("--target", default="127.0.0.1:50051", help="host:port")
    parser.add_argument("--service", default="", help="a service name; '' = server")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds")
    parser.add_argument(
        "--http",
        metavar="URL",
        help="check an HTTP health page instead (the projector's and the "
        "dashboard's /healthz): healthy on 200",
    )
    parser.add_argument("--tls-ca", help="PEM CA the server's certificate is from")
    parser.add_argument("--tls-cert", help="PEM client certificate (mutual TLS)")
    parser.add_argument("--tls-key", help="PEM key of --tls-cert")
    args = parser.parse_args(argv)
    if args.http:
        ok, seen = check_http(args.http, args.timeout)
    else:
        try:
            channel = channel_for(args.target, args.tls_ca, args.tls_cert, args.tls_key)
        except OSError as exc:
            print(f"{exc.filename}: {exc.strerror}")
            return 1
        ok, seen = check(args.target, args.service, args.timeout, channel)
    print(seen)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
