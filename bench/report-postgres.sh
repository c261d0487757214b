#!/bin/sh
# The section "PostgreSQL, one and two daemons" of docs/BENCHMARKS.md, from a results file written by
# bench/run.sh (the whole run, or BENCH_ONLY=postgres): the figures, the anchors of the same run, where the
# CPU went, then the notes in bench/analysis-postgres.md. bench/report.sh includes it.
set -eu
results=$1
j() { jq -r "$1" "$results"; }
c() { j ".$1.$2 // 0 | floor"; }
# Three decimals: PostgreSQL's ratios are below 0.01.
ratio() { if [ "$2" -gt 0 ] && [ "$1" -gt 0 ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; else echo "—"; fi; }
cell() { # result name: "N req/s, p99 M µs", or a dash when the run left it out
    if [ "$(c "$1" requestsPerSecond)" -gt 0 ]; then
        echo "$(c "$1" requestsPerSecond) req/s, p99 $(c "$1" p99Micros) µs"
    else
        echo "—"
    fi
}
cores() { # result name: "twitterd X / PostgreSQL Y"
    if [ "$(j ".$1_cpu // empty")" ]; then
        echo "$(j ".$1_cpu.twitterdCores") / $(j ".$1_cpu.postgresCores")"
    else
        echo "—"
    fi
}
lpush=$(c c_redis_lpush_aof_64x4 requestsPerSecond); limit=$(c c_limit_ping_16x8 requestsPerSecond)
post=$(c c_post_64x4 requestsPerSecond); pg_post=$(c c_pg_post_64x4 requestsPerSecond)
pg2_post=$(c c_pg2_post_64x4 requestsPerSecond)
home=$(c c_home_16x8 requestsPerSecond); pg_home=$(c c_pg_home_16x8 requestsPerSecond)
pg2_home=$(c c_pg2_home_16x8 requestsPerSecond)
flushes() { # post result name, its rate: "N (M)", WAL flushes per second and posts per flush
    per_second=$(j ".$1_wal.walSyncsPerSecond // 0")
    awk -v f="$per_second" -v r="$2" 'BEGIN { if (f > 0) printf "%d (%.0f)", f, r / f; else printf "—" }'
}
pg_flushes=$(flushes c_pg_post_64x4 "$pg_post"); pg2_flushes=$(flushes c_pg2_post_64x4 "$pg2_post")
post_split=$(j '.c_pg2_post_64x4.perSocket // [] | map(tostring) | join(" / ")')
home_split=$(j '.c_pg2_home_16x8.perSocket // [] | map(tostring) | join(" / ")')

cat <<MARKDOWN

## PostgreSQL, one and two daemons

The C client's home and post loads again with twitterd on PostgreSQL $(j '.postgres_server.version'), first through one daemon,
then through two daemons sharing the database (one client deals its connections out between the two sockets
in turn: 32 + 32 posting, 8 + 8 reading), beside the SQLite daemon and the anchors of the same run. The
cluster is bench/postgres.sh's own, on this machine's disk: fsync $(j '.postgres_server.fsync'), synchronous_commit
$(j '.postgres_server.synchronousCommit'), shared_buffers $(j '.postgres_server.sharedBuffers'), Unix socket; each daemon's pool has 16 connections. It is seeded
in SQL (bench/postgres-seed.sql): $(j '.postgres_seed.users') users, $(j '.postgres_seed.follows') follows picked by popularity as
\`twitterd seed\` picks them, $(j '.postgres_seed.tweets') tweets, no replies, reposts or likes, in $(j '.postgres_seed.seconds') s (the SQLite daemon's database has the
same numbers of users, follows and tweets, and 100k replies, 50k reposts and 500k likes besides).
Each load runs $(j .meta.durationSeconds) s, $(j '.meta.rounds // 1') times, median reported. \`make bench\` runs it all;
\`BENCH_ONLY=postgres make bench\` runs only these rows and their anchors (bench/results-postgres.json).

| load (connections × depth) | SQLite, one daemon | PostgreSQL, one daemon | PostgreSQL, two daemons | anchor in the same run |
| --- | --- | --- | --- | --- |
| durable post, 64 × 4 | $(cell c_post_64x4) | $(cell c_pg_post_64x4) | $(cell c_pg2_post_64x4) | Redis LPUSH, appendfsync always: $(cell c_redis_lpush_aof_64x4) |
| ratio to the anchor | $(ratio "$post" "$lpush") | $(ratio "$pg_post" "$lpush") | $(ratio "$pg2_post" "$lpush") | |
| cores used, twitterd / PostgreSQL | | $(cores c_pg_post_64x4) | $(cores c_pg2_post_64x4) | |
| WAL flushes per second (posts per flush) | | $pg_flushes | $pg2_flushes | |
| home 20, 16 × 8 | $(cell c_home_16x8) | $(cell c_pg_home_16x8) | $(cell c_pg2_home_16x8) | line server ping 16 × 8: $(cell c_limit_ping_16x8) |
| ratio to the anchor | $(ratio "$home" "$limit") | $(ratio "$pg_home" "$limit") | $(ratio "$pg2_home" "$limit") | |
| cores used, twitterd / PostgreSQL | | $(cores c_pg_home_16x8) | $(cores c_pg2_home_16x8) | |

The three ratios issue #34 sets as targets, from this run: PostgreSQL's durable posts are
$(ratio "$pg_post" "$post") of SQLite's (target 0.5), its home pages $(ratio "$pg_home" "$home") of SQLite's (target 0.5), and two
daemons on one database give $(ratio "$pg2_post" "$pg_post") of one daemon's posts and $(ratio "$pg2_home" "$pg_home") of its pages (target 0.9 on both).

Errors: post $(c c_pg_post_64x4 errors) and $(c c_pg2_post_64x4 errors), home $(c c_pg_home_16x8 errors) and $(c c_pg2_home_16x8 errors) (one and two daemons).
Cores are the CPU time of the daemons and of every PostgreSQL process (backends, WAL writer, checkpointer)
over all rounds of the load, logins (Argon2id, one per connection per round) and warm-ups included, divided
by its wall time; the machine has $(nproc). Two daemons' answers split $post_split (posts) and
$home_split (pages). WAL flushes are \`pg_stat_wal.wal_sync\` over the load's rounds.
MARKDOWN
if [ "$(j '.c_pg_post_64x4_statements.top // empty')" ]; then
    cat <<MARKDOWN

The server's side of the one-daemon post load (all its rounds, logins included), from \`pg_stat_statements\`
(preloaded in the bench's cluster): $(j '.c_pg_post_64x4_statements.calls') statements executed, the eight that took the most time:

| statement | calls | total ms | mean ms | rows |
| --- | --- | --- | --- | --- |
MARKDOWN
    jq -r '.c_pg_post_64x4_statements.top[] | "| `\(.query | gsub("\\|"; "\\\\|"))` | \(.calls) | \(.totalMs) | \(.meanMs) | \(.rows) |"' "$results"
fi
if [ -f bench/analysis-postgres.md ]; then
    echo
    cat bench/analysis-postgres.md
fi
