#!/bin/sh
# Runs once, when the PostgreSQL volume is new (docker-entrypoint-initdb.d):
# an owner role for the schema, a plain LOGIN role for the service
# (deploy/README.md, "Two database roles") and a replication role for the
# standby. Passwords come from compose's env.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" <<SQL
CREATE ROLE ledger_owner LOGIN PASSWORD '${LEDGER_OWNER_PASSWORD}';
CREATE ROLE ledger_svc LOGIN PASSWORD '${LEDGER_SVC_PASSWORD}';
CREATE ROLE ledger_replicator LOGIN REPLICATION PASSWORD '${LEDGER_REPLICATION_PASSWORD}';
CREATE DATABASE ledger OWNER ledger_owner;
SQL
# The standby (postgres-replica) streams as ledger_replicator; password auth as
# for every other connection.
echo "host replication ledger_replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
