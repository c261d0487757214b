#!/bin/sh
# The Mastodon client API's part of `make bench`, run by bench/run.sh after its own loads (BENCH_ONLY=http runs
# only this, on a seed of its own): `GET /api/v1/timelines/home` and `POST /api/v1/statuses` over keep-alive
# HTTP on the daemon's HTTP Unix socket and on loopback TCP, beside `timeline.home` and `tweets.post` over JSON-RPC on the Unix socket, on the same
# database, one daemon serving both, by the same C client (bench/load_client.c, --http for HTTP/1.1).
#
# Every load is 64 connections with one request in flight each: no HTTP client pipelines (toot, Mastodon.py and
# browsers all wait for each answer on a keep-alive connection), so the JSON-RPC rows here wait too, and the
# ratio compares the two transports, not pipelining with waiting. Each connection is its own seeded account
# (seedN): the HTTP connections log in over JSON-RPC first and send that session's token as their bearer.
#
# Expects from run.sh: BIN, WORK, RESULTS, DURATION, ROUNDS, the C client in $WORK/load_client, the seeded
# database $WORK/twitterd.sqlite, and $WORK/twitterd.toml (rates off). HTTP_PORT names the loopback port
# (default 3917); no daemon of run.sh's may be running on the database.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
HTTP_PORT=${HTTP_PORT:-3917}

"$BIN/twitterd" --socket "$WORK/http-bench.sock" --database "$WORK/twitterd.sqlite" --config "$WORK/twitterd.toml" \
    --http "unix:$WORK/http-bench-http.sock" --http "127.0.0.1:$HTTP_PORT" --log-level warning 2> "$WORK/http-bench.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null || true' EXIT
until "$BIN/twctl" --socket "$WORK/http-bench.sock" status >/dev/null 2>&1; do sleep 0.1; done
until curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/api/v1/instance"; do sleep 0.1; done

RPC="$WORK/http-bench.sock"
# HTTP on the daemon's Unix socket (http.sock, its default listener; the same kind of socket as the JSON-RPC
# rows), and on loopback TCP. Every HTTP load says `Accept-Encoding: gzip, deflate`, as python-requests does for
# toot and Mastodon.py, but for one row of home without it.
HTTP_UNIX="$WORK/http-bench-http.sock"
HTTP_TCP="tcp:127.0.0.1:$HTTP_PORT"
hload() { # name, socket, request, more load_client args...
    name=$1; socket=$2; request=$3; shift 3
    cload "$name" "$socket" --http "$@" --login-socket "$RPC" --connections 64 --depth 1 --login "$SEED_LOGIN" "$request"
}
cload c_home_64x1 "$RPC" --connections 64 --depth 1 --login "$SEED_LOGIN" \
    '{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}'
hload h_home_64x1 "$HTTP_UNIX" 'GET /api/v1/timelines/home?limit=20' --gzip
hload ht_home_64x1 "$HTTP_TCP" 'GET /api/v1/timelines/home?limit=20' --gzip
hload hti_home_64x1 "$HTTP_TCP" 'GET /api/v1/timelines/home?limit=20'
cload c_post_64x1 "$RPC" --connections 64 --depth 1 --login "$SEED_LOGIN" \
    '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'
hload h_post_64x1 "$HTTP_UNIX" 'POST /api/v1/statuses status=load+from+the+C+client' --gzip
hload ht_post_64x1 "$HTTP_TCP" 'POST /api/v1/statuses status=load+from+the+C+client' --gzip
# Issue #52's public page beside the method it shows: /@seed1 (the profile, its pinned post and 20 posts, as
# nobody) against timeline.user of the same account (20 posts, logged in).
cload c_user_64x1 "$RPC" --connections 64 --depth 1 --login "$SEED_LOGIN" \
    '{"jsonrpc":"2.0","method":"timeline.user","params":{"username":"seed1","limit":20},"id":1}'
hload h_page_64x1 "$HTTP_UNIX" 'GET /@seed1' --gzip
hload ht_page_64x1 "$HTTP_TCP" 'GET /@seed1' --gzip
kill "$daemon"
wait "$daemon" 2>/dev/null || true
