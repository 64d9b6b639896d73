#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on loopback for recall's store tests.
#
#   eval "$(.ci/postgres.sh)"          # as root on a fresh Debian machine (or as the postgres user)
#   python -m pytest tests/test_store_*.py tests/test_session_*.py
#   .ci/postgres.sh stop "$RECALL_TEST_PG_DIR"
#
# Installs Debian's `postgresql` package if no server binaries are present, initdb's a cluster in
# a new temp directory owned by `postgres`, starts it on 127.0.0.1 on a free port (trust auth,
# loopback only: nothing here is reachable from outside), creates a database, and prints the
# export lines for the caller to eval. Everything else goes to stderr.
set -euo pipefail

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

find_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

if [ "${1:-}" = "stop" ]; then
    dir=${2:?usage: .ci/postgres.sh stop DIR}
    as_postgres "$(find_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    rm -rf -- "$dir"
    exit 0
fi

if [ -z "$(find_bin)" ] || [ ! -x "$(find_bin)/initdb" ]; then
    echo "postgres.sh: installing postgresql with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends postgresql >&2
fi
bin=$(find_bin)

free_port() {
    if command -v python3 >/dev/null; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    else
        local port
        for port in $(seq 25432 25532); do
            if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
        done
        echo "postgres.sh: no free port" >&2; exit 1
    fi
}

dir=$(mktemp -d /tmp/recall-pg.XXXXXX)
chmod 0755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
port=$(free_port)

as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >&2
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >&2
as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres recall_test >&2

echo "export RECALL_TEST_PG_URL=postgresql+psycopg://postgres@127.0.0.1:$port/recall_test"
echo "export RECALL_TEST_PG_DIR=$dir"
