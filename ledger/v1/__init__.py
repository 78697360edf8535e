"""Generated protobuf stubs (do not edit): package ledger.v1."""
