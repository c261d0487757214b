#!/bin/sh
# Counts the statements PostgreSQL executes for one request of each kind: one daemon on a fresh database in
# scripts/with-postgres.sh's cluster with every statement logged, one client that signs up, then sends 50
# tweets.post one at a time, then 50 timeline.home; prints the statements per request, and how many of them
# read the commit log. Then, under load, CLIENTS connections (64 unless set) each sign up and send POSTS
# tweets.post (20 unless set) without waiting for the answers, all at once, so that group commit batches them
# as under bench/run.sh's post load; prints the statements per post and the posts per batch (per advisory
# lock taken). MENTIONS=1 has each of those posts mention the first client's account, so that each also writes
# a mention and a notification. CLIENTS=0 skips that part. Statements sent unnamed (not prepared) are counted
# apart. Run it as:  sh scripts/with-postgres.sh sh bench/round-trips.sh
set -eu
BIN=${BIN:-.build/debug}
WORK=$(mktemp -d /tmp/twitterd-round-trips.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
folder=$(echo "$TWITTERD_TEST_POSTGRES" | sed 's/.*host=//')
PSQL="psql -h $folder -U twitterd -d postgres -Atq"
$PSQL -c "CREATE DATABASE round_trips"
$PSQL -c "ALTER SYSTEM SET log_min_duration_statement = 0" -c "SELECT pg_reload_conf()" >/dev/null
printf '[auth]\npassword_ops_limit = 1\npassword_mem_limit_kib = 8\n[rates]\nposts = "off"\n' >"$WORK/fast.toml"
"$BIN/twitterd" --socket "$WORK/s.sock" --database "postgres://twitterd@/round_trips?host=$folder" \
    --config "$WORK/fast.toml" --log-level warning 2>"$WORK/daemon.log" &
pid=$!
i=0
while [ ! -S "$WORK/s.sock" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
# The pauses only keep the requests one at a time, so that each is counted alone; nothing waits on them.
{
    printf '%s\n' '{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"p@example.com","password":"correct horse battery","username":"rt"},"id":0}'
    sleep 1
    $PSQL -c "SELECT 'MARK-POSTS'" >/dev/null
    n=1
    while [ $n -le 50 ]; do
        printf '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"post %d"},"id":%d}\n' $n $n
        sleep 0.05
        n=$((n + 1))
    done
    sleep 1
    $PSQL -c "SELECT 'MARK-HOME'" >/dev/null
    n=1
    while [ $n -le 50 ]; do
        printf '{"jsonrpc":"2.0","method":"timeline.home","id":%d}\n' $((n + 100))
        sleep 0.05
        n=$((n + 1))
    done
    sleep 1
    $PSQL -c "SELECT 'MARK-END'" >/dev/null
} | socat -t 5 - "UNIX-CONNECT:$WORK/s.sock" >"$WORK/answers"
CLIENTS=${CLIENTS:-64}
POSTS=${POSTS:-20}
mention=""
[ "${MENTIONS:-0}" = 1 ] && mention=" @rt"
# Each client signs up, waits for the go, then pipelines its posts; socat waits up to 5 s for the answers.
clients=""
c=1
while [ $c -le "$CLIENTS" ]; do
    {
        printf '{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"l%d@example.com","password":"correct horse battery","username":"load%d"},"id":0}\n' $c $c
        while [ ! -e "$WORK/go" ]; do sleep 0.05; done
        n=1
        while [ $n -le "$POSTS" ]; do
            printf '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load %d post %d%s"},"id":%d}\n' $c $n "$mention" $n
            n=$((n + 1))
        done
    } | socat -t 5 - "UNIX-CONNECT:$WORK/s.sock" >"$WORK/load.$c" &
    clients="$clients $!"
    c=$((c + 1))
done
if [ "$CLIENTS" -gt 0 ]; then
    sleep 3
    $PSQL -c "SELECT 'MARK-LOAD'" >/dev/null
    touch "$WORK/go"
    # Only the clients: a bare `wait` would wait for the daemon too.
    for client in $clients; do wait "$client"; done
    $PSQL -c "SELECT 'MARK-LOAD-END'" >/dev/null
fi
kill $pid
wait $pid || true
$PSQL -c "ALTER SYSTEM RESET log_min_duration_statement" -c "SELECT pg_reload_conf()" >/dev/null
echo "answered: $(grep -c '"result"' "$WORK/answers") of 101"
awk '/MARK-POSTS/ { s = "tweets.post" } /MARK-HOME/ { s = "timeline.home" } /MARK-END/ { s = "" }
    / execute / && s != "" { c[s]++; if (/commit_events WHERE id >/) l[s]++; if (/execute <unnamed>/) u[s]++ }
    END { for (k in c) printf "%s: %.1f statements a request, %.1f of them reads of the commit log, %.1f unnamed (not prepared)\n", k, c[k] / 50, l[k] / 50, u[k] / 50 }' \
    "$folder/server.log"
[ "$CLIENTS" -gt 0 ] || exit 0
answered=$(cat "$WORK"/load.* | grep '"result"' | grep -vc '"id":0')
echo "under load: $answered of $((CLIENTS * POSTS)) posts answered by $CLIENTS connections"
# Statements are the extended protocol's executes and the simple protocol's statements (BEGIN, COMMIT).
awk -v posts="$answered" '/MARK-LOAD-END/ { s = 0 }
    s && (/ execute / || / statement: /) {
        c++; if (/pg_advisory_xact_lock/) b++; if (/execute <unnamed>/ || / statement: /) u++
        k = $0; sub(/.*(execute [^:]*|statement): */, "", k); t[substr(k, 1, 60)]++
    }
    /MARK-LOAD/ && !/MARK-LOAD-END/ { s = 1 }
    END { printf "under load: %.2f statements a post, %.1f posts a batch (%d statements, %d batches, %d of them unnamed)\n", c / posts, posts / b, c, b, u
        for (k in t) if (t[k] / posts >= 0.005) printf "  %6.3f a post: %s\n", t[k] / posts, k }' \
    "$folder/server.log"
