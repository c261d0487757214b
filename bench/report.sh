#!/bin/sh
# Turns bench/results.json into docs/BENCHMARKS.md: the figures, their anchors, and the targets.
set -eu
results=$1
j() { jq -r "$1" "$results"; }
rps() { j ".$1[0].requestsPerSecond | floor"; }
p99() { j ".$1[0].p99Micros"; }
ratio() { if [ "$2" -gt 0 ]; then echo "scale=3; $1 / $2" | bc; else echo "—"; fi; }
status() { if [ "$(echo "$1" | bc)" -eq 1 ]; then echo "met"; else echo "**missed**"; fi; }

# The machine as run.sh recorded it; this machine's, for results from before run.sh recorded it.
cpu=$(awk -F: '/model name/ {print $2; exit}' /proc/cpuinfo | sed 's/^ //')
ping_d1=$(rps ping_d1); ping_d64=$(rps ping_d64)
limit_d1=$(rps limit_ping_d1); limit_d64=$(rps limit_ping_d64)
redis_ping=$(j '.redis.pingDepth64 | floor'); redis_ping_d1=$(j '.redis.pingDepth1 | floor')
fetch16=$(rps fetch_c16); post64=$(rps post_c64); home16=$(rps home_c16); home16_p99=$(p99 home_c16)
search1_p99=$(p99 search_c1)
probe_p99=$(j '.login[1].p99Micros')
idle_kib=$(j '.rss_idle.kib'); held_kib=$(j '.idle.residentKiBHolding')
ready_ms=$(j '.ready.readyMilliseconds')

cat <<MARKDOWN
# Benchmarks

Measured by \`make bench\` (bench/run.sh) on $(j .meta.date), commit $(j .meta.commit), on this machine:
$(j ".meta.machine // \"$(nproc) cores ($cpu), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)\"").
The load generator runs on the same two cores as the server, as do the anchors, so every figure and its
anchor share the same handicap. Raw figures: bench/results.json. Each load runs $(j .meta.durationSeconds) s, $(j '.meta.rounds // 1') times, and the median run is reported (so is Redis's).
Latencies are microseconds, measured by the client from write to answer.

## Anchors and twitterd side by side

| load | twitterd | anchor | ratio |
| --- | --- | --- | --- |
| ping, 1 connection, depth 1 | $ping_d1 req/s, p99 $(p99 ping_d1) µs | line server $limit_d1 req/s, p99 $(p99 limit_ping_d1) µs | $(ratio "$ping_d1" "$limit_d1") |
| ping, 1 connection, depth 64 | $ping_d64 req/s, p99 $(p99 ping_d64) µs | line server $limit_d64 req/s, p99 $(p99 limit_ping_d64) µs | $(ratio "$ping_d64" "$limit_d64") |
| ping, 1 connection, depth 64 | $ping_d64 req/s | Redis PING (redis-benchmark -c 1 -P 64) $redis_ping req/s | $(ratio "$ping_d64" "$redis_ping") |
| ping, 1 connection, depth 1 | $ping_d1 req/s | Redis PING (-c 1) $redis_ping_d1 req/s | $(ratio "$ping_d1" "$redis_ping_d1") |

Redis with 50 clients: LPUSH $(j '.redis.lpush | floor') req/s, LRANGE_100 $(j '.redis.lrange100 | floor') req/s.

## twitterd

| load | connections × depth | req/s | p50 | p90 | p99 | p99.9 | errors |
| --- | --- | --- | --- | --- | --- | --- | --- |
MARKDOWN
for name in fetch_c1 fetch_c16 fetch_c64 post_c1 post_c16 post_c64 mix_c16 home_c16 home_c64 search_c1 search_c16 messages_send_c16 messages_list_c16 login; do
    # A load added after the results were recorded is named, not left out: results.json may predate it.
    j "if .$name[0] then .$name[0] | \"| $name | \\(.connections) × \\(.depth) | \\(.requestsPerSecond | floor) | \\(.p50Micros) | \\(.p90Micros) | \\(.p99Micros) | \\(.p999Micros) | \\(.errors) |\" else \"| $name | not measured | | | | | | |\" end"
done
cat <<MARKDOWN

fetch is \`tweets.fetch\` with limit 20 over the 1M-tweet feed; post is \`tweets.post\`, durable when
answered (WAL, synchronous=FULL, group commit); mix is 90 % fetch and 10 % post; home is
\`timeline.home\` with limit 20, each connection logged in as a different seeded account (about 100 follows
each, chosen by popularity); search is \`search.tweets\` for "coffee kernel" with limit 20, two words of
the seeded vocabulary that each appear in about a fifth of the tweets; messages_send is \`messages.send\`
into seed1's conversation with seed2 (each text sealed with XChaCha20-Poly1305, durable when answered) and
messages_list is \`messages.list\` of it with limit 20 (each text opened); login is
\`auth.login\` with a password at libsodium's INTERACTIVE Argon2id cost, while a probe connection pings
at depth 1: probe p99 $probe_p99 µs.

| resource | figure |
| --- | --- |
| resident memory, idle (1M-tweet database open) | $idle_kib KiB |
| resident memory with 10,000 idle connections | $held_kib KiB |
| resident memory after a first login and page (a daemon of its own) | $(j '.rss_first_page.kib') KiB |
| resident memory after the run | $(j '.rss_after.kib') KiB |
| ping p99 before / while 10,000 connections are held | $(j '.idle.baselinePingP99Micros') / $(j '.idle.holdingPingP99Micros') µs |
| start to READY=1 with the 1M-tweet database | $ready_ms ms |
| seeding 10k users (about 100 follows each), 1M tweets, 100k replies, 50k reposts, 500k likes | $(j '.seed.seconds') s |

## Targets

| target | measured | verdict |
| --- | --- | --- |
| ping depth 64 ≥ ½ Redis PING | $ping_d64 vs $(echo "$redis_ping / 2" | bc) | $(status "$ping_d64 * 2 >= $redis_ping") |
| fetch ≥ 100,000 req/s over 16 connections | $fetch16 | $(status "$fetch16 >= 100000") |
| post ≥ 50,000 durable posts/s over 64 connections | $post64 | $(status "$post64 >= 50000") |
| home ≥ 100,000 pages/s over 16 connections | $home16 | $(status "$home16 >= 100000") |
| home p99 < 5 ms over 16 connections | $home16_p99 µs | $(status "$home16_p99 < 5000") |
| two-word search p99 < 20 ms (1 connection) | $search1_p99 µs | $(status "$search1_p99 < 20000") |
| ping p99 < 2 ms while logins fill the hashing pool | $probe_p99 µs | $(status "$probe_p99 < 2000") |
| ≤ 30 MB resident idle | $idle_kib KiB | $(status "$idle_kib <= 30720") |
| ≤ 80 MB with 10,000 idle connections | $held_kib KiB | $(status "$held_kib <= 81920") |
| READY within 200 ms | $ready_ms ms | $(status "$ready_ms <= 200") |

MARKDOWN

c() { j ".$1.$2 // 0 | floor"; }
c_ping=$(c c_ping_16x16 requestsPerSecond); c_redis=$(c c_redis_ping_16x16 requestsPerSecond)
c_ping_p99=$(c c_ping_16x16 p99Micros); c_redis_p99=$(c c_redis_ping_16x16 p99Micros)
c_post=$(c c_post_64x4 requestsPerSecond); c_lpush=$(c c_redis_lpush_aof_64x4 requestsPerSecond)
c_fetch=$(c c_fetch_16x8 requestsPerSecond); c_home=$(c c_home_16x8 requestsPerSecond)
c_limit=$(c c_limit_ping_16x8 requestsPerSecond)
multiple() { if [ "$2" -gt 0 ]; then echo "$(echo "scale=1; $1 / $2" | bc) ×"; else echo "—"; fi; }
# What one more request costs in instructions (bench/instructions.sh), or "not measured" for results without it.
instructions() { j ".instructions_$1.instructionsPerRequest // \"not measured\""; }
row() { # label, twitterd result, anchor label, anchor result
    echo "| $1 | $(c "$2" requestsPerSecond) req/s, p99 $(c "$2" p99Micros) µs | $3 $(c "$4" requestsPerSecond) req/s, p99 $(c "$4" p99Micros) µs | $(ratio "$(c "$2" requestsPerSecond)" "$(c "$4" requestsPerSecond)") | $(c "$2" clientCpuPercent) % / $(c "$4" clientCpuPercent) % |"
}
cat <<MARKDOWN

## The independent C client

bench/load_client.c drives twitterd and each anchor alike: N connections on a Unix socket, each keeping its
depth of requests in flight, every request timed from its write to its answer, every answer checked for an
error. The last column is the client's own CPU time over the run, for twitterd and for the anchor: the
client is not the bottleneck while it stays well under one core of the two.

| load (connections × depth) | twitterd | anchor in the same run | ratio | client CPU |
| --- | --- | --- | --- | --- |
$(row "ping, 1 × 64" c_ping_1x64 "Redis PING" c_redis_ping_1x64)
$(row "ping, 16 × 16" c_ping_16x16 "Redis PING" c_redis_ping_16x16)
$(row "durable post, 64 × 4" c_post_64x4 "Redis LPUSH, appendfsync always" c_redis_lpush_aof_64x4)
$(row "fetch 20, 16 × 8" c_fetch_16x8 "line server ping" c_limit_ping_16x8)
$(row "home 20, 16 × 8" c_home_16x8 "line server ping" c_limit_ping_16x8)
$(row "durable post, 64 × 4, PostgreSQL" c_pg_post_64x4 "Redis LPUSH, appendfsync always" c_redis_lpush_aof_64x4)
$(row "durable post, 64 × 4, PostgreSQL, two daemons" c_pg2_post_64x4 "Redis LPUSH, appendfsync always" c_redis_lpush_aof_64x4)
$(row "home 20, 16 × 8, PostgreSQL" c_pg_home_16x8 "line server ping" c_limit_ping_16x8)
$(row "home 20, 16 × 8, PostgreSQL, two daemons" c_pg2_home_16x8 "line server ping" c_limit_ping_16x8)

Errors: ping $(c c_ping_16x16 errors), fetch $(c c_fetch_16x8 errors), home $(c c_home_16x8 errors), post $(c c_post_64x4 errors).

Each of issue #38's targets, with what one more request of its kind costs the daemon in instructions, counted
under callgrind by bench/instructions.sh in the same run (a small seeded database, one connection; the steady
measure of the CPU per request, which the machine's drifting speed does not move).

| target (C client, one run) | measured | verdict | instructions a request |
| --- | --- | --- | --- |
| ping 16 × 16 ≥ 0.8 of Redis PING | $(ratio "$c_ping" "$c_redis") | $(status "$c_ping * 10 >= $c_redis * 8") | ping $(instructions ping) |
| ping 16 × 16 p99 ≤ 2 × Redis's | $c_ping_p99 vs $c_redis_p99 µs: $(multiple "$c_ping_p99" "$c_redis_p99") | $(status "$c_ping_p99 <= 2 * $c_redis_p99") | ping $(instructions ping) |
| durable posts 64 × 4 ≥ 0.8 of Redis LPUSH (appendfsync always) | $(ratio "$c_post" "$c_lpush") | $(status "$c_post * 10 >= $c_lpush * 8") | post $(instructions post) |
| fetch 16 × 8 ≥ 0.5 of the line server's ping 16 × 8 | $(ratio "$c_fetch" "$c_limit") | $(status "$c_fetch * 2 >= $c_limit") | fetch20 $(instructions fetch20) |
| home 16 × 8 ≥ 0.3 of the line server's ping 16 × 8 | $(ratio "$c_home" "$c_limit") | $(status "$c_home * 10 >= $c_limit * 3") | home20 $(instructions home20) |
| 10,000 idle connections under 60 MB | $held_kib KiB | $(status "$held_kib < 61440") | |
| idle under 25 MB | $idle_kib KiB | $(status "$idle_kib < 25600") | |

The same count for a kept home page over the HTTP socket (\`GET /api/v1/timelines/home?limit=20\` as
python-requests sends it, gzip taken), issue #50's fast path, instructions a request: $(instructions http_home20)
(home20 over JSON-RPC: $(instructions home20)).
MARKDOWN

# Issue #51: one client's durable post against Redis's, the loads' ratios raised, and the PostgreSQL store's posts
# against SQLite's; each ratio is of two figures of this run, by the same client.
c_post1=$(c c_post_1x1 requestsPerSecond); c_lpush1=$(c c_redis_lpush_aof_1x1 requestsPerSecond)
c_fetch_limit=$(c c_fetch_limit_16x8 requestsPerSecond); c_pg_post=$(c c_pg_post_64x4 requestsPerSecond)
measured() { if [ "$1" -gt 0 ] && [ "$2" -gt 0 ]; then echo "$3"; else echo "not measured"; fi; }
verdict51() { if [ "$1" -gt 0 ] && [ "$2" -gt 0 ]; then status "$3"; else echo "—"; fi; }
cat <<MARKDOWN

### Issue #51's targets

The same C client and anchors, in the same run: durable posts against Redis \`LPUSH\` with \`appendfsync always\`
(on disk before the answer, as a post is), fetch 20 against the line server answering every request with the
bytes twitterd answers seed1's \`tweets.fetch\` with (bench/line_server.c with an answer file), ping against Redis
\`PING\`, and PostgreSQL's durable posts against SQLite's.

| target | twitterd | anchor | measured | verdict |
| --- | --- | --- | --- | --- |
| durable post, 1 × 1, ≥ 0.9 of Redis LPUSH (appendfsync always) | $c_post1 req/s | $c_lpush1 req/s | $(measured "$c_post1" "$c_lpush1" "$(ratio "$c_post1" "$c_lpush1")") | $(verdict51 "$c_post1" "$c_lpush1" "$c_post1 * 10 >= $c_lpush1 * 9") |
| durable post, 64 × 4, ≥ 0.5 of the same Redis | $c_post req/s | $c_lpush req/s | $(measured "$c_post" "$c_lpush" "$(ratio "$c_post" "$c_lpush")") | $(verdict51 "$c_post" "$c_lpush" "$c_post * 2 >= $c_lpush") |
| fetch 20, 16 × 8, ≥ 0.5 of a C server answering the same bytes | $c_fetch req/s | $c_fetch_limit req/s | $(measured "$c_fetch" "$c_fetch_limit" "$(ratio "$c_fetch" "$c_fetch_limit")") | $(verdict51 "$c_fetch" "$c_fetch_limit" "$c_fetch * 2 >= $c_fetch_limit") |
| ping 16 × 16 ≥ 0.8 of Redis PING | $c_ping req/s | $c_redis req/s | $(measured "$c_ping" "$c_redis" "$(ratio "$c_ping" "$c_redis")") | $(verdict51 "$c_ping" "$c_redis" "$c_ping * 10 >= $c_redis * 8") |
| ping 16 × 16 p99 ≤ 2 × Redis's | $c_ping_p99 µs | $c_redis_p99 µs | $(measured "$c_ping_p99" "$c_redis_p99" "$(multiple "$c_ping_p99" "$c_redis_p99")") | $(verdict51 "$c_ping_p99" "$c_redis_p99" "$c_ping_p99 <= 2 * $c_redis_p99") |
| PostgreSQL durable posts 64 × 4 ≥ 0.5 of SQLite's | $c_pg_post req/s | $c_post req/s | $(measured "$c_pg_post" "$c_post" "$(ratio "$c_pg_post" "$c_post")") | $(verdict51 "$c_pg_post" "$c_post" "$c_pg_post * 2 >= $c_post") |
| memory idle under 25 MB | $idle_kib KiB | | | $(status "$idle_kib < 25600") |
| 10,000 idle connections under 60 MB | $held_kib KiB | | | $(status "$held_kib < 61440") |

Instructions a post in this run (bench/instructions.sh): $(instructions post_lone) for a lone post, sent once the
one before is answered as at 1 × 1 (a batch of its own), $(instructions post) for a pipelined one (batches of many).
Memory idle is read before any request but \`twctl status\`; a daemon of its own held
$(j '.rss_first_page.kib') KiB after its first login and page.
MARKDOWN
sh bench/report-postgres.sh "$results"
sh bench/report-http.sh "$results"
echo
cat bench/analysis-instructions.md
echo
cat bench/analysis.md
