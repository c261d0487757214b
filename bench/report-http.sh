#!/bin/sh
# The Mastodon client API's rows of docs/BENCHMARKS.md (bench/http.sh's loads) from a results file: HTTP beside
# JSON-RPC, and the target that the HTTP rows reach half of the JSON-RPC ones.
set -eu
results=$1
c() { jq -r ".$1.$2 // 0 | floor" "$results"; }
ratio() { if [ "$2" -gt 0 ]; then echo "scale=2; $1 / $2" | bc; else echo "—"; fi; }
verdict() { if [ "$2" -gt 0 ] && [ "$(echo "$1 * 2 >= $2" | bc)" -eq 1 ]; then echo "met"; else echo "**missed**"; fi; }
row() { # label, HTTP result, JSON-RPC result
    if [ "$(jq -r ".$2 // empty | length" "$results")" = "" ]; then
        echo "| $1 | not measured | not measured | | | |"
        return
    fi
    http=$(c "$2" requestsPerSecond); rpc=$(c "$3" requestsPerSecond)
    echo "| $1 | $http req/s, p99 $(c "$2" p99Micros) µs, $(c "$2" errors) errors | $rpc req/s, p99 $(c "$3" p99Micros) µs, $(c "$3" errors) errors | $(ratio "$http" "$rpc") | $(verdict "$http" "$rpc") | $(c "$2" clientCpuPercent) % / $(c "$3" clientCpuPercent) % |"
}
cat <<MARKDOWN

## The Mastodon client API over HTTP

bench/http.sh: one daemon serving its JSON-RPC socket, its HTTP Unix socket (\`http.sock\`, the default
listener) and \`--http 127.0.0.1:PORT\`, on the same database; the C client (bench/load_client.c, \`--http\` for
HTTP/1.1 keep-alive) drives all three, 64 connections with one request in flight each (no HTTP client
pipelines), each connection its own seeded account. Every HTTP load says \`Accept-Encoding: gzip, deflate\`, as
python-requests does for toot and Mastodon.py, except the row marked "no gzip". Home is 20 statuses; a post is
durable when answered. Target (issue #50): each HTTP row at least 0.5 of its JSON-RPC row.
$(jq -r 'if .h_home_64x1 == null then "Not measured in the run above: `BENCH_ONLY=http make bench` measures these rows alone, `make bench` with the others." elif .meta.only == "http" then "These rows: `\(.meta.command)` on \(.meta.date), commit \(.meta.commit), \(.meta.durationSeconds) s × \(.meta.rounds) rounds, the median reported (bench/results-http.json)." else "Measured in the run above." end' "$results")

| load, 64 × 1 | HTTP (Mastodon API) | JSON-RPC (same method) | ratio | ≥ 0.5 | client CPU |
| --- | --- | --- | --- | --- | --- |
$(row "home 20: \`GET /api/v1/timelines/home\` · \`timeline.home\`, HTTP on http.sock" h_home_64x1 c_home_64x1)
$(row "the same, HTTP on loopback TCP" ht_home_64x1 c_home_64x1)
$(row "the same, loopback TCP, no gzip" hti_home_64x1 c_home_64x1)
$(row "durable post: \`POST /api/v1/statuses\` · \`tweets.post\`, http.sock" h_post_64x1 c_post_64x1)
$(row "the same, loopback TCP" ht_post_64x1 c_post_64x1)
$(row "profile page (#52): \`GET /@seed1\` (HTML) · \`timeline.user\`, http.sock" h_page_64x1 c_user_64x1)
$(row "the same, loopback TCP" ht_page_64x1 c_user_64x1)
MARKDOWN
