#!/bin/sh
# Runs once, when the PostgreSQL volume is new (docker-entrypoint-initdb.d):
# an owner role for the schema and a plain LOGIN role for the service
# (deploy/README.md, "Two database roles"). Passwords come from compose's env.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" <<SQL
CREATE ROLE ledger_owner LOGIN PASSWORD '${LEDGER_OWNER_PASSWORD}';
CREATE ROLE ledger_svc LOGIN PASSWORD '${LEDGER_SVC_PASSWORD}';
CREATE DATABASE ledger OWNER ledger_owner;
SQL
