#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests that need a real one (tests/scale/test_postgres.py).
#
# Why a private cluster rather than the distribution's service: CI machines have no init system, a developer
# may already run PostgreSQL on 5432, and a data dir under /tmp cannot leak state into anything that lasts.
# Idempotent: a second call finds the cluster, starts it if it stopped, and prints the same exports.
#
#   eval "$(bash ci/postgres.sh)"      # then: .venv/bin/python -m pytest tests/scale
#   bash ci/postgres.sh stop           # stops the server (the data dir stays until /tmp is cleaned)
#
# Only `export` lines go to stdout; progress goes to stderr. Overridable: ETALON_PG_ROOT, ETALON_PG_PORT,
# ETALON_PG_USER, ETALON_PG_DB, ETALON_PG_PASSWORD (the default password is fine for a 127.0.0.1-only
# throwaway server; pass your own to get it instead).
set -euo pipefail

ROOT="${ETALON_PG_ROOT:-/tmp/etalon-pg}"
PORT="${ETALON_PG_PORT:-54329}"
ROLE="${ETALON_PG_USER:-etalon}"
DB="${ETALON_PG_DB:-etalon}"
PASSWORD="${ETALON_PG_PASSWORD:-etalon}"
DATA="$ROOT/data"
SOCKETS="$ROOT/run"
LOG="$ROOT/server.log"

say() { echo "postgres.sh: $*" >&2; }

bindir() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [[ -z "$dir" ]] && command -v pg_config >/dev/null 2>&1; then
        dir="$(pg_config --bindir)"
    fi
    [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && echo "$dir"
}

BIN="$(bindir || true)"
if [[ -z "$BIN" ]]; then
    if [[ "$(id -u)" != "0" ]]; then
        say "PostgreSQL is not installed and installing it needs root: apt-get install -y postgresql"
        exit 1
    fi
    say "installing Debian's postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y postgresql >&2
    BIN="$(bindir || true)"
    [[ -n "$BIN" ]] || { say "postgresql installed but no initdb/pg_ctl under /usr/lib/postgresql/*/bin"; exit 1; }
fi

# initdb and the server refuse to run as root: as root, act as the `postgres` system user the package creates.
if [[ "$(id -u)" == "0" ]]; then
    OWNER=postgres
    id "$OWNER" >/dev/null 2>&1 || useradd --system --home-dir "$ROOT" --shell /bin/bash "$OWNER"
    as_owner() { runuser -u "$OWNER" -- "$@"; }
else
    OWNER="$(id -un)"
    as_owner() { "$@"; }
fi

if [[ "${1:-}" == "stop" ]]; then
    if [[ -f "$DATA/PG_VERSION" ]]; then
        as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2 || true
    fi
    exit 0
fi

mkdir -p "$ROOT" "$SOCKETS"
chown "$OWNER" "$ROOT" "$SOCKETS"
chmod 700 "$ROOT"

if [[ ! -f "$DATA/PG_VERSION" ]]; then
    say "creating a cluster in $DATA"
    rm -rf "$DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres -E UTF8 --locale=C.UTF-8 >&2
fi

# Superuser over the private socket only; every TCP login needs a password, checked with md5 rather than
# SCRAM: Dagster opens a connection per storage call (about 4,900 in `etalon demo`) and SCRAM's key stretching
# costs ~10 ms each. Rewritten on every call, so an older cluster of ours gets it too.
cat > "$DATA/pg_hba.conf" <<'HBA'
local   all   all                 trust
host    all   all   127.0.0.1/32  md5
HBA
chown "$OWNER" "$DATA/pg_hba.conf"

ready() { as_owner "$BIN/pg_isready" -q -h "$SOCKETS" -p "$PORT"; }

# A server killed without shutting down leaves its pid file; if that pid is gone or a zombie (containers
# without an init reap nothing), pg_ctl would think it still runs. Its orphaned backends hold the shared memory
# for a few seconds more, so starting is retried.
clear_stale_pid() {
    local pid
    pid="$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null || true)"
    [[ -n "$pid" ]] || return 0
    if ! kill -0 "$pid" 2>/dev/null || [[ "$(ps -o stat= -p "$pid" 2>/dev/null)" == Z* ]]; then
        rm -f "$DATA/postmaster.pid"
    fi
}

for _ in 1 2 3 4 5 6; do
    ready && break
    clear_stale_pid
    say "starting the server on 127.0.0.1:$PORT (log: $LOG)"
    touch "$LOG" && chown "$OWNER" "$LOG"
    as_owner "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -k $SOCKETS -c max_connections=200" start >&2 || sleep 2
done
ready || { say "the server did not start; the end of $LOG:"; tail -n 20 "$LOG" >&2; exit 1; }

psql_super() { as_owner "$BIN/psql" -X -q -h "$SOCKETS" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

# Durability is worth nothing on a throwaway server and costs a disk flush per commit (Dagster commits every
# event): off, and reloaded, so that an already running cluster gets it too. Never do this on a real instance.
psql_super -c "ALTER SYSTEM SET fsync = off" -c "ALTER SYSTEM SET synchronous_commit = off" \
    -c "ALTER SYSTEM SET full_page_writes = off" -c "ALTER SYSTEM SET password_encryption = md5" \
    -c "SELECT pg_reload_conf()" >/dev/null

# Role and database: created once, password (re)set every time so that the exports below always work.
if [[ "$(psql_super -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != "1" ]]; then
    say "creating role $ROLE"
    psql_super -c "CREATE ROLE \"$ROLE\" LOGIN CREATEDB"
fi
psql_super -c "SET password_encryption = md5" \
    -c "ALTER ROLE \"$ROLE\" WITH LOGIN CREATEDB PASSWORD '${PASSWORD//\'/\'\'}'"
if [[ "$(psql_super -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != "1" ]]; then
    say "creating database $DB"
    psql_super -c "CREATE DATABASE \"$DB\" OWNER \"$ROLE\""
fi

url_password="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' \
    "$PASSWORD" 2>/dev/null || echo "$PASSWORD")"
say "ready: $ROLE@127.0.0.1:$PORT/$DB"
cat <<EOF
export ETALON_PG_URL='postgresql://$ROLE:$url_password@127.0.0.1:$PORT/$DB'
export DAGSTER_PG_HOST='127.0.0.1'
export DAGSTER_PG_PORT='$PORT'
export DAGSTER_PG_USERNAME='$ROLE'
export DAGSTER_PG_PASSWORD='$PASSWORD'
export DAGSTER_PG_DB='$DB'
EOF
