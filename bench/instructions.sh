#!/bin/sh
# Instructions per request, counted by valgrind's callgrind: the steady measure of the daemon's CPU per request on
# a machine whose speed drifts by a third between minutes (issue #38). The same binary, database and load give the
# same count whatever else the machine is doing, so a change's effect is read before and after, not timed.
#
# The release daemon runs under callgrind on a small seeded database (fast password hashing, write limits off).
# Each request is sent N times and 3 × N times, pipelined down one connection, with the counters zeroed just
# before and dumped just after each run (callgrind_control), after a first run that warms the caches. What one
# more request costs is the difference of the instructions over the difference of the answers: connecting and
# logging in, the same in both runs, drop out. The client's own speed does not enter: only the daemon is counted.
#
#   sh bench/instructions.sh            # after `swift build -c release --static-swift-stdlib`
#   BIN=.build/release sh bench/instructions.sh
#
# Prints one line per load, `NAME instructions/request N (answers A)`, and writes them as JSON lines to
# $INSTRUCTIONS_OUT when set (bench/run.sh puts them in its results).
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}

for tool in valgrind callgrind_control socat jq strip python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "instructions: $tool is missing (apt-get install valgrind socat jq binutils python3)" >&2; exit 1; }
done
[ -x "$BIN/twitterd" ] || { echo "instructions: no $BIN/twitterd; build in release mode first" >&2; exit 1; }

work=$(mktemp -d /tmp/twitterd-instructions.XXXXXX)
pid=""
trap 'kill $pid 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

printf '[auth]\npassword_ops_limit = 1\npassword_mem_limit_kib = 8\n[rates]\nposts = "off"\n' >"$work/config.toml"
# A fixed seed: every run counts on the same users, tweets, follows and likes.
"$BIN/twitterd" seed --users 32 --tweets 2000 --follows 8 --random-seed 38 --database "$work/twitterd.sqlite" \
    --config "$work/config.toml" >/dev/null
socket="$work/twitterd.sock"
# valgrind 3.19 cannot read the DWARF 5 that Swift's clang writes ("Possibly corrupted debuginfo file"), and only
# the totals are needed: the daemon runs from a copy without debug information.
cp "$BIN/twitterd" "$work/twitterd"
strip --strip-debug "$work/twitterd"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.%p" \
    "$work/twitterd" --socket "$socket" --database "$work/twitterd.sqlite" --config "$work/config.toml" \
    --http "unix:$work/http.sock" --log-level warning 2>"$work/valgrind.log" &
pid=$!
# Under valgrind the start takes a while: wait for an answer, not a guess of the time.
tries=0
until "$BIN/twctl" --socket "$socket" status >/dev/null 2>&1; do
    tries=$((tries + 1))
    kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 600 ] || { echo "instructions: the daemon did not answer under valgrind" >&2; cat "$work/valgrind.log" >&2; exit 1; }
    sleep 0.2
done

# Every connection logs in with one session token of seed1: a token login costs a hash, not Argon2id, so the
# connections are up at once even under valgrind.
token=$(printf '%s\n' '{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"password","credentials":{"email":"seed1@example.com","password":"seed-password"}},"id":1}' |
    socat -t 30 - "UNIX-CONNECT:$socket" | jq -r '.result.session.token')
[ -n "$token" ] && [ "$token" != null ] || { echo "instructions: no session token" >&2; exit 1; }
LOGIN='{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"'"$token"'"}},"id":0}'

# dumped: dumps the counters and sets instructions to their total since they were zeroed.
dumped() {
    before=$(ls "$work"/callgrind.* | wc -l)
    callgrind_control -d "$pid" >/dev/null 2>&1
    until [ "$(ls "$work"/callgrind.* | wc -l)" -gt "$before" ]; do sleep 0.1; done
    dump=$(ls -t "$work"/callgrind.* | head -n 1)
    until grep -q '^totals:' "$dump" 2>/dev/null; do sleep 0.1; done
    instructions=$(awk '/^totals:/ { print $2 }' "$dump")
}

# once N LOGIN REQUEST: zeroes the counters, sends LOGIN (unless empty) and N copies of REQUEST down one
# connection, half-closes it and reads every answer (the daemon answers all that came, then closes), and dumps the
# counters; sets instructions and answers. A counted number of requests, not a duration: the count does not depend
# on how fast valgrind lets the daemon run.
once() {
    n=$1 login=$2 request=$3
    {
        [ -z "$login" ] || printf '%s\n' "$login"
        yes "$request" | head -n "$n"
    } >"$work/requests"
    callgrind_control -z "$pid" >/dev/null 2>&1
    socat -t 600 - "UNIX-CONNECT:$socket" <"$work/requests" >"$work/answers"
    dumped
    answers=$(grep -c '"result"' "$work/answers" || true)
    [ -z "$login" ] || answers=$((answers - 1))
    errors=$(grep -c '"error"' "$work/answers" || true)
    [ "$errors" = 0 ] || echo "instructions: $errors errors: $(grep -m 1 '"error"' "$work/answers")" >&2
}

# once_http N http TARGET: as `once`, over the HTTP socket: N pipelined `GET TARGET`s as python-requests sends them
# (the session token as the bearer, gzip taken), the last saying `Connection: close`, so the daemon answers every
# one and then closes. The socket is not half-closed (`shut-none`): an HTTP connection's end of input ends it.
once_http() {
    n=$1 target=$3
    head="GET $target HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer $token\r\nAccept-Encoding: gzip, deflate\r\n"
    {
        i=1
        while [ "$i" -lt "$n" ]; do printf "$head\r\n"; i=$((i + 1)); done
        printf "${head}Connection: close\r\n\r\n"
    } >"$work/requests"
    callgrind_control -z "$pid" >/dev/null 2>&1
    socat -t 600 - "UNIX-CONNECT:$work/http.sock,shut-none" <"$work/requests" >"$work/answers"
    dumped
    # A gzipped body ends without a newline: a status line may follow it on the same line.
    answers=$(grep -ao 'HTTP/1\.1 200 OK' "$work/answers" | wc -l)
    refused=$(grep -ao 'HTTP/1\.1 [1345][0-9][0-9] [A-Za-z ]*' "$work/answers" | wc -l)
    [ "$refused" = 0 ] || echo "instructions: $refused refusals: $(grep -ao -m 1 'HTTP/1\.1 [1345][0-9][0-9] [A-Za-z ]*' "$work/answers" | head -n 1)" >&2
}

# once_lone N LOGIN REQUEST: as `once`, but each request sent only once the answer to the one before has come, as
# one client posting and waiting does (issue #51's durable post 1 × 1): every post a batch of its own.
once_lone() {
    n=$1 login=$2 request=$3
    callgrind_control -z "$pid" >/dev/null 2>&1
    python3 -c '
import socket, sys
path, n, login, request = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
connection = socket.socket(socket.AF_UNIX)
connection.connect(path)
lines = connection.makefile("rwb")
for line in ([login] if login else []) + [request] * n:
    lines.write(line.encode() + b"\n")
    lines.flush()
    sys.stdout.buffer.write(lines.readline())
' "$socket" "$n" "$login" "$request" >"$work/answers"
    dumped
    answers=$(grep -c '"result"' "$work/answers" || true)
    [ -z "$login" ] || answers=$((answers - 1))
    errors=$(grep -c '"error"' "$work/answers" || true)
    [ "$errors" = 0 ] || echo "instructions: $errors errors: $(grep -m 1 '"error"' "$work/answers")" >&2
}

# count NAME N LOGIN REQUEST [RUNNER]: the request sent N and 3 × N times; the difference of the instructions over the
# difference of the answers is what one more request costs, so connecting and logging in drop out. LOGIN `http`
# sends REQUEST, a target, over the HTTP socket instead (`once_http`). RUNNER, if given, sends them instead of
# `once` (`once_lone`: one at a time).
count() {
    name=$1 n=$2 login=$3 request=$4 run=${5:-once}
    # A first run, not counted, fills the caches a first request would fill.
    [ "$login" != http ] || run=once_http
    $run "$n" "$login" "$request"
    $run "$n" "$login" "$request"
    short_instructions=$instructions short_answers=$answers
    $run $((n * 3)) "$login" "$request"
    perRequest=$(awk -v i="$instructions" -v j="$short_instructions" -v n="$answers" -v m="$short_answers" \
        'BEGIN { printf "%d", (n > m ? (i - j) / (n - m) : 0) }')
    echo "$name instructions/request $perRequest (answers $short_answers and $answers)"
    if [ -n "${INSTRUCTIONS_OUT:-}" ]; then
        printf '{"name":"%s","result":{"instructionsPerRequest":%s,"answers":%s}}\n' \
            "instructions_$name" "$perRequest" "$answers" >>"$INSTRUCTIONS_OUT"
    fi
}

count ping 2000 "" '{"jsonrpc":"2.0","method":"system.ping","id":1}'
count fetch20 300 "$LOGIN" '{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":1}'
count home20 300 "$LOGIN" '{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}'
count post 300 "$LOGIN" '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"instructions"},"id":1}'
count post_lone 100 "$LOGIN" '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"instructions"},"id":1}' once_lone
count http_home20 300 http '/api/v1/timelines/home?limit=20'
