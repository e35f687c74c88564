#!/bin/bash
# Starts PostgreSQL in the foreground (deploy/images/postgres.Containerfile). On an
# empty data folder it first makes the cluster: POSTGRES_USER (default postgres)
# with POSTGRES_PASSWORD, password (scram-sha-256) logins from the network, and
# the database POSTGRES_DB (default: the user's name). Extra arguments go to postgres.
set -euo pipefail

user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "postgres-entrypoint: set POSTGRES_PASSWORD to make the database" >&2
    exit 1
  fi
  password_file=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb --pgdata="$PGDATA" --username="$user" --pwfile="$password_file" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$password_file"
  printf 'host all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  if [ "$database" != postgres ]; then
    printf 'CREATE DATABASE "%s" OWNER "%s";\n' "$database" "$user" \
      | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres-entrypoint: made the cluster with the database $database" >&2
fi

exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
