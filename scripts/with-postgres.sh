#!/bin/sh
# Runs a command beside a throwaway PostgreSQL cluster of its own: `initdb` in a temporary folder, a Unix socket
# in that folder and no TCP, stopped and deleted when the command ends, whatever its outcome. The command finds
# the cluster in TWITTERD_TEST_POSTGRES (a postgres:// URL of its superuser role, `twitterd`); the PostgreSQL
# tests create a database of their own in it. Debian's server refuses to run as root, so as root the cluster
# runs as the `postgres` user its package creates.
#
#   sh scripts/with-postgres.sh swift test --skip-build --no-parallel
set -eu

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "with-postgres: no PostgreSQL server in /usr/lib/postgresql/*/bin; install Debian's postgresql package" >&2
    exit 1
fi

folder=$(mktemp -d /tmp/twitterd-postgres.XXXXXX)
as=""
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$folder"
    as="runuser -u postgres --"
fi

stop() {
    $as "$bindir/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT
trap 'exit 130' INT TERM

# Trust on a socket in a 0700 folder: only its owner (and root) can reach it. fsync off: a test cluster lives
# for one run, and no test here pulls the power; a killed postmaster loses nothing either way.
# max_connections 2000: the store suite's PostgreSQL stores are not closed between tests (each holds its pool,
# its LISTEN and its lease connections until the process ends), and with this round's new store tests a whole
# run came within reach of 300 once ("too many clients already").
if ! $as "$bindir/initdb" -D "$folder/data" -U twitterd --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$folder/initdb.log" 2>&1; then
    echo "with-postgres: initdb failed:" >&2
    cat "$folder/initdb.log" >&2
    exit 1
fi
# Kept as a script: the fault tests kill the server and start it again the same way.
cat >"$folder/start.sh" <<START
exec $as "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \\
    -o "-k $folder -c listen_addresses='' -p 5432 -c fsync=off -c max_connections=2000" start
START
if ! sh "$folder/start.sh" >/dev/null; then
    echo "with-postgres: the server did not start:" >&2
    cat "$folder/server.log" >&2
    exit 1
fi

export TWITTERD_TEST_POSTGRES="postgres://twitterd@/postgres?host=$folder"
export TWITTERD_TEST_POSTGRES_BIN="$bindir"
status=0
"$@" || status=$?
exit $status
