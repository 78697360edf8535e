#!/bin/sh
# Patroni's post_bootstrap: run once, on the first primary, with a superuser
# connection string as $1. The two ledger roles of deploy/README.md ("Two
# database roles") and the database; passwords from the node's environment
# (unset: the roles are left for an administrator to create).
set -eu
[ -n "${LEDGER_OWNER_PASSWORD:-}" ] && [ -n "${LEDGER_SVC_PASSWORD:-}" ] || exit 0
psql -v ON_ERROR_STOP=1 "$1" <<SQL
CREATE ROLE ledger_owner LOGIN PASSWORD '${LEDGER_OWNER_PASSWORD}';
CREATE ROLE ledger_svc LOGIN PASSWORD '${LEDGER_SVC_PASSWORD}';
CREATE DATABASE ledger OWNER ledger_owner;
SQL
