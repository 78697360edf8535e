"""Regenerate the committed protobuf/gRPC stubs from ``protos/``.

Stubs are committed so that installing the service needs no code generation,
and a test regenerates them into a temporary folder and diffs, so a .proto
edit without regenerated stubs fails CI.

Usage: ``python -m services.protogen [name ...]`` (writes ``ledger/v1/*_pb2*.py[i]``;
names like ``thalara`` limit the run to those files).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"


def proto_files() -> list[Path]:
    return sorted(PROTOS.glob("ledger/v1/*.proto"))


def generate(out_dir: Path, only: list[str] | None = None) -> None:
    """Run protoc for every .proto under ``protos/`` (or just ``only``) into ``out_dir``.

    :raises RuntimeError: if protoc reports an error.
    """
    import grpc_tools
    from grpc_tools import protoc

    include = Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{PROTOS}",
        f"-I{include}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *[
            str(p.relative_to(PROTOS))
            for p in proto_files()
            if not only or p.name in only or p.stem in only
        ],
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed: " + " ".join(args))
    for pkg in (out_dir / "ledger", out_dir / "ledger" / "v1"):
        init = pkg / "__init__.py"
        if not init.exists():
            init.write_text(
                '"""Generated protobuf stubs for package ledger.v1 (do not edit)."""\n'
            )


def main() -> int:
    generate(ROOT, sys.argv[1:] or None)
    print(f"generated stubs for {len(proto_files())} proto files into ledger/v1/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
