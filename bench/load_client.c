/*
 * An independent load client: N connections to a Unix socket, each keeping DEPTH requests in flight, timing
 * every request from its write to its answer. It drives twitterd and its anchors (the line server, Redis)
 * the same way, so the ratios `make bench` reports compare servers, not clients. One thread, epoll, no
 * allocation on the hot path: at 600k answers a second it spends about a third of one core, so it is not
 * the bottleneck it measures (docs/BENCHMARKS.md says how that was checked).
 *
 * cc -O2 -o load_client load_client.c
 * load_client --socket PATH [--socket PATH…] [--connections N] [--depth D] [--duration S] [--resp]
 *             [--login LINE] [--warmup S] REQUEST
 *
 * With several --socket options the connections are dealt out in turn (connection 1 to the first socket,
 * 2 to the second…), so one client drives several daemons that share a database: one clock, one histogram
 * and one CPU figure for the whole load, and connection numbers (and so seeded accounts) that stay distinct
 * across daemons. "perSocket" then says how many answers each socket gave.
 *
 * --http METHOD PATH [BODY] speaks HTTP/1.1 keep-alive instead (the Mastodon client API of twitterd's --http
 * listener), one request in flight per connection as every HTTP client without pipelining has; REQUEST is then
 * "METHOD PATH" or "METHOD PATH FORM-BODY" (sent as application/x-www-form-urlencoded), and --socket may be
 * tcp:HOST:PORT. Each connection first logs in over JSON-RPC on --login-socket with --login LINE, and sends the
 * session token of that answer as its bearer token: the same seeded account per connection number as the
 * JSON-RPC loads. With --gzip each request says `Accept-Encoding: gzip, deflate`, as python-requests (so toot and
 * Mastodon.py) does, and the body is counted as it comes, not inflated. An answer is one HTTP response (Content-Length or chunked); a status of 400 or more is an error.
 *
 * REQUEST is one line of JSON-RPC (a newline is added), or with --resp a Redis command in RESP, written with
 * \r\n escapes. --login LINE is sent once per connection before the clock starts, `%d` in it replaced by
 * the connection's number from 1 (seed%d logs each connection in as its own seeded account); its answer must
 * hold no "error". An answer is one line (JSON-RPC) or one RESP simple reply (+OK, :N, -ERR); an answer
 * holding "error" (JSON-RPC) or starting with '-' (RESP) counts as an error. Prints one JSON object:
 * {"requestsPerSecond", "p50Micros", "p99Micros", "p999Micros", "maxMicros", "errors", "requests", ...},
 * with "clientCpuPercent", the client's own CPU time over the whole run: what it took from the two cores.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTIONS 4096
#define MAX_SOCKETS 16
#define MAX_DEPTH 256
#define READ_SIZE 262144
/* Latencies are counted in 1 µs buckets up to 1 s; slower answers land in the last bucket. */
#define BUCKETS 1000000

struct connection {
    int fd;
    int number;
    uint64_t sent_at[MAX_DEPTH]; /* a ring of the in-flight requests' send times */
    int head, in_flight;
    char pending[READ_SIZE]; /* the start of an answer not yet ended */
    size_t pending_length;
    int answer_has_error; /* an "error" seen in the answer being read */
    int socket_index; /* which --socket it is connected to */
    /* --http: the connection's own request (its bearer token differs), and where its answer's parse stands. */
    char *http_request;
    size_t http_request_length;
    int http_state;
    size_t body_left;
    int chunked;
};

/* An HTTP/1.1 response is read as lines (status, fields, chunk sizes, trailer) and counted bytes (the body). */
enum { HTTP_STATUS, HTTP_FIELDS, HTTP_BODY, HTTP_CHUNK_SIZE, HTTP_CHUNK_DATA, HTTP_TRAILER };

static struct connection connections[MAX_CONNECTIONS];
static uint32_t histogram[BUCKETS];
static uint64_t answered, errors, slowest;
static uint64_t answered_by_socket[MAX_SOCKETS];
static int measuring;
static char request[8192];
static size_t request_length;
static int resp_mode;
static int http_mode;
static int gzip_mode; /* --gzip: HTTP requests take gzip answers */

static uint64_t now_micros(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000u + (uint64_t)time.tv_nsec / 1000u;
}

static void die(const char *what) {
    fprintf(stderr, "load_client: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Writes all of `bytes`, waiting on a full socket: requests are small and answers are read between batches. */
static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, bytes, length);
        if (written < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            die("write");
        }
        bytes += written;
        length -= (size_t)written;
    }
}

static void send_requests(struct connection *connection, int count) {
    static char batch[MAX_DEPTH * 8192];
    size_t length = 0;
    uint64_t now = now_micros();
    for (int i = 0; i < count; i++) {
        if (http_mode) {
            memcpy(batch + length, connection->http_request, connection->http_request_length);
            length += connection->http_request_length;
        } else {
            memcpy(batch + length, request, request_length);
            length += request_length;
        }
        connection->sent_at[(connection->head + connection->in_flight) % MAX_DEPTH] = now;
        connection->in_flight++;
    }
    write_all(connection->fd, batch, length);
}

static void answer_ended(struct connection *connection) {
    uint64_t latency = now_micros() - connection->sent_at[connection->head];
    connection->head = (connection->head + 1) % MAX_DEPTH;
    connection->in_flight--;
    if (measuring) {
        histogram[latency < BUCKETS ? latency : BUCKETS - 1]++;
        if (latency > slowest) slowest = latency;
        answered++;
        answered_by_socket[connection->socket_index]++;
        if (connection->answer_has_error) errors++;
    }
    connection->answer_has_error = 0;
}

/* Scans `bytes` for ends of answers; returns how many ended. Of an answer split across reads only its last
 * bytes are kept in `pending`, enough to find an "error" spanning the cut (and to know a RESP answer began). */
static int scan(struct connection *connection, const char *bytes, size_t length) {
    int ended = 0;
    const char *start = bytes;
    const char *end = bytes + length;
    while (start < end) {
        const char *newline = memchr(start, '\n', (size_t)(end - start));
        const char *stop = newline ? newline : end;
        if (resp_mode) {
            if (connection->pending_length == 0 && stop > start && *start == '-') connection->answer_has_error = 1;
        } else if (!connection->answer_has_error) {
            /* "error" may straddle reads: check the kept tail joined with this piece. */
            char joined[16];
            size_t tail = connection->pending_length < 5 ? connection->pending_length : 5;
            size_t head = (size_t)(stop - start) < 5 ? (size_t)(stop - start) : 5;
            memcpy(joined, connection->pending + connection->pending_length - tail, tail);
            memcpy(joined + tail, start, head);
            if (memmem(joined, tail + head, "\"error\"", 7) || memmem(start, (size_t)(stop - start), "\"error\"", 7))
                connection->answer_has_error = 1;
        }
        if (!newline) {
            size_t piece = (size_t)(end - start);
            size_t keep = piece < 8 ? piece : 8;
            if (connection->pending_length + keep >= sizeof(connection->pending)) connection->pending_length = 0;
            memcpy(connection->pending + connection->pending_length, end - keep, keep);
            connection->pending_length += keep;
            break;
        }
        connection->pending_length = 0;
        answer_ended(connection);
        ended++;
        start = newline + 1;
    }
    return ended;
}

/* Takes bytes up to a '\n' into `pending`; 1 when a whole line is there (its "\r\n" cut off), 0 when `*at` reached
 * `end` first. A line longer than the buffer keeps only its start: no line that matters here is that long. */
static int take_line(struct connection *connection, const char **at, const char *end) {
    const char *newline = memchr(*at, '\n', (size_t)(end - *at));
    const char *stop = newline ? newline : end;
    size_t piece = (size_t)(stop - *at);
    size_t room = sizeof(connection->pending) - 1 - connection->pending_length;
    if (piece > room) piece = room;
    memcpy(connection->pending + connection->pending_length, *at, piece);
    connection->pending_length += piece;
    if (!newline) {
        *at = end;
        return 0;
    }
    *at = newline + 1;
    if (connection->pending_length > 0 && connection->pending[connection->pending_length - 1] == '\r')
        connection->pending_length--;
    connection->pending[connection->pending_length] = 0;
    return 1;
}

/* Scans HTTP/1.1 responses; returns how many ended. */
static int scan_http(struct connection *connection, const char *bytes, size_t length) {
    int ended = 0;
    const char *at = bytes;
    const char *end = bytes + length;
    while (at < end) {
        if (connection->http_state == HTTP_BODY || connection->http_state == HTTP_CHUNK_DATA) {
            size_t piece = (size_t)(end - at) < connection->body_left ? (size_t)(end - at) : connection->body_left;
            at += piece;
            connection->body_left -= piece;
            if (connection->body_left > 0) break;
            if (connection->http_state == HTTP_CHUNK_DATA) {
                connection->http_state = HTTP_CHUNK_SIZE;
                continue;
            }
            connection->http_state = HTTP_STATUS;
            answer_ended(connection);
            ended++;
            continue;
        }
        if (!take_line(connection, &at, end)) break;
        char *line = connection->pending;
        connection->pending_length = 0;
        switch (connection->http_state) {
        case HTTP_STATUS: /* HTTP/1.1 200 OK */
            if (strlen(line) < 12 || atoi(line + 9) >= 400) connection->answer_has_error = 1;
            connection->body_left = 0;
            connection->chunked = 0;
            connection->http_state = HTTP_FIELDS;
            break;
        case HTTP_FIELDS:
            if (*line == 0) {
                if (connection->chunked) {
                    connection->http_state = HTTP_CHUNK_SIZE;
                } else if (connection->body_left > 0) {
                    connection->http_state = HTTP_BODY;
                } else {
                    connection->http_state = HTTP_STATUS;
                    answer_ended(connection);
                    ended++;
                }
            } else if (!strncasecmp(line, "content-length:", 15)) {
                connection->body_left = strtoull(line + 15, NULL, 10);
            } else if (!strncasecmp(line, "transfer-encoding:", 18) && strcasestr(line + 18, "chunked")) {
                connection->chunked = 1;
            }
            break;
        case HTTP_CHUNK_SIZE: {
            size_t size = strtoull(line, NULL, 16);
            if (size == 0) {
                connection->http_state = HTTP_TRAILER;
            } else {
                connection->body_left = size + 2; /* the data and its CRLF */
                connection->http_state = HTTP_CHUNK_DATA;
            }
            break;
        }
        case HTTP_TRAILER:
            if (*line == 0) {
                connection->http_state = HTTP_STATUS;
                answer_ended(connection);
                ended++;
            }
            break;
        }
    }
    return ended;
}

/* Turns the \r \n escapes of a RESP command written on the command line into bytes. */
static size_t unescape(const char *text, char *out) {
    size_t length = 0;
    for (const char *p = text; *p; p++) {
        if (p[0] == '\\' && p[1] == 'r') { out[length++] = '\r'; p++; }
        else if (p[0] == '\\' && p[1] == 'n') { out[length++] = '\n'; p++; }
        else out[length++] = *p;
    }
    return length;
}

static int connect_to(const char *path) {
    if (!strncmp(path, "tcp:", 4)) {
        /* tcp:HOST:PORT, HOST a dotted IPv4 address */
        char host[64];
        const char *colon = strrchr(path + 4, ':');
        if (!colon || (size_t)(colon - path - 4) >= sizeof(host)) {
            fprintf(stderr, "load_client: %s is not tcp:HOST:PORT\n", path);
            exit(64);
        }
        memcpy(host, path + 4, (size_t)(colon - path - 4));
        host[colon - path - 4] = 0;
        struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
        if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
            fprintf(stderr, "load_client: %s is not an IPv4 address\n", host);
            exit(64);
        }
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) die("socket");
        if (connect(fd, (struct sockaddr *)&address, sizeof(address)) < 0) die(path);
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        return fd;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof(address.sun_path) - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) < 0) die(path);
    return fd;
}

/* Sends the login line on `fd` and reads its one-line answer, blocking: before the clock starts. With `token`,
 * copies the answer's "token" (the session's) into it. */
static void log_in_on(int fd, struct connection *connection, const char *template, char *token, size_t size) {
    char line[4096];
    int length = snprintf(line, sizeof(line) - 1, template, connection->number);
    line[length++] = '\n';
    write_all(fd, line, (size_t)length);
    char answer[65536];
    size_t have = 0;
    while (have < sizeof(answer) - 1) {
        ssize_t got = read(fd, answer + have, sizeof(answer) - 1 - have);
        if (got <= 0) die("login answer");
        have += (size_t)got;
        if (memchr(answer, '\n', have)) break;
    }
    answer[have] = 0;
    if (strstr(answer, "\"error\"")) {
        fprintf(stderr, "load_client: login of connection %d failed: %s", connection->number, answer);
        exit(1);
    }
    if (token) {
        const char *found = strstr(answer, "\"token\":\"");
        const char *close = found ? strchr(found + 9, '"') : NULL;
        if (!close || (size_t)(close - found - 9) >= size) {
            fprintf(stderr, "load_client: no token in the login answer of connection %d: %s", connection->number, answer);
            exit(1);
        }
        memcpy(token, found + 9, (size_t)(close - found - 9));
        token[close - found - 9] = 0;
    }
}

/* --http: logs the connection in over JSON-RPC on `login_socket` and builds its request with that bearer token. */
static void prepare_http(struct connection *connection, const char *login_socket, const char *template,
                         const char *method, const char *path, const char *body) {
    char token[512] = "";
    if (template) {
        int fd = connect_to(login_socket);
        log_in_on(fd, connection, template, token, sizeof(token));
        close(fd);
    }
    char text[8192];
    int length = snprintf(text, sizeof(text), "%s %s HTTP/1.1\r\nHost: localhost\r\n", method, path);
    if (*token) length += snprintf(text + length, sizeof(text) - (size_t)length, "Authorization: Bearer %s\r\n", token);
    /* What python-requests sends, so toot and Mastodon.py: the daemon may then answer gzipped. */
    if (gzip_mode) length += snprintf(text + length, sizeof(text) - (size_t)length, "Accept-Encoding: gzip, deflate\r\n");
    if (body)
        length += snprintf(text + length, sizeof(text) - (size_t)length,
                           "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %zu\r\n\r\n%s",
                           strlen(body), body);
    else
        length += snprintf(text + length, sizeof(text) - (size_t)length, "\r\n");
    if ((size_t)length >= sizeof(text)) {
        fprintf(stderr, "load_client: the HTTP request is too long\n");
        exit(64);
    }
    connection->http_request = strdup(text);
    connection->http_request_length = (size_t)length;
}

static uint64_t percentile(double fraction) {
    uint64_t wanted = (uint64_t)(fraction * (double)answered);
    uint64_t seen = 0;
    for (uint64_t micros = 0; micros < BUCKETS; micros++) {
        seen += histogram[micros];
        if (seen > wanted) return micros;
    }
    return BUCKETS;
}

int main(int argc, char **argv) {
    const char *paths[MAX_SOCKETS];
    const char *login = NULL, *payload = NULL, *login_socket = NULL;
    int socket_count = 0, count = 1, depth = 1;
    double duration = 5, warmup = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--socket") && i + 1 < argc && socket_count < MAX_SOCKETS) paths[socket_count++] = argv[++i];
        else if (!strcmp(argv[i], "--connections") && i + 1 < argc) count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--depth") && i + 1 < argc) depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--duration") && i + 1 < argc) duration = atof(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atof(argv[++i]);
        else if (!strcmp(argv[i], "--login") && i + 1 < argc) login = argv[++i];
        else if (!strcmp(argv[i], "--resp")) resp_mode = 1;
        else if (!strcmp(argv[i], "--http")) http_mode = 1;
        else if (!strcmp(argv[i], "--gzip")) gzip_mode = 1;
        else if (!strcmp(argv[i], "--login-socket") && i + 1 < argc) login_socket = argv[++i];
        else if (argv[i][0] != '-' && !payload) payload = argv[i];
        else {
            fprintf(stderr, "load_client: unknown argument %s\n", argv[i]);
            return 64;
        }
    }
    if (socket_count == 0 || !payload || count < 1 || count > MAX_CONNECTIONS || depth < 1 || depth > MAX_DEPTH) {
        fprintf(stderr, "usage: load_client --socket PATH [--socket PATH…] [--connections 1-%d] [--depth 1-%d] "
                        "[--duration S] [--warmup S] [--resp | --http [--gzip] [--login-socket PATH]] [--login LINE] REQUEST\n", MAX_CONNECTIONS, MAX_DEPTH);
        return 64;
    }
    /* --http: "METHOD PATH [BODY]" */
    char http_method[16] = "", http_path[4096] = "";
    const char *http_body = NULL;
    if (http_mode) {
        const char *space = strchr(payload, ' ');
        if (!space || (size_t)(space - payload) >= sizeof(http_method) || (login && !login_socket) || depth != 1) {
            fprintf(stderr, "load_client: --http takes \"METHOD PATH [BODY]\", depth 1 and, with --login, --login-socket\n");
            return 64;
        }
        memcpy(http_method, payload, (size_t)(space - payload));
        const char *path = space + 1;
        const char *after = strchr(path, ' ');
        size_t path_length = after ? (size_t)(after - path) : strlen(path);
        if (path_length >= sizeof(http_path)) return 64;
        memcpy(http_path, path, path_length);
        if (after) http_body = after + 1;
    }
    if (resp_mode) {
        request_length = unescape(payload, request);
    } else {
        request_length = strlen(payload);
        memcpy(request, payload, request_length);
        request[request_length++] = '\n';
    }
    signal(SIGPIPE, SIG_IGN);
    int poll = epoll_create1(0);
    if (poll < 0) die("epoll_create1");
    /* --http: every login first, then every HTTP connection. Interleaved, each login's connection took the
     * daemon's next event loop in turn with the HTTP ones, and with two loops all HTTP connections landed on
     * one of them (the daemon's event loops are dealt out round-robin across its listeners). */
    if (http_mode)
        for (int i = 0; i < count; i++) {
            connections[i].number = i + 1;
            prepare_http(&connections[i], login_socket, login, http_method, http_path, http_body);
        }
    for (int i = 0; i < count; i++) {
        struct connection *connection = &connections[i];
        connection->socket_index = i % socket_count;
        connection->fd = connect_to(paths[connection->socket_index]);
        connection->number = i + 1;
        if (login && !http_mode)
            log_in_on(connection->fd, connection, login, NULL, 0);
        fcntl(connection->fd, F_SETFL, fcntl(connection->fd, F_GETFL) | O_NONBLOCK);
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = connection};
        if (epoll_ctl(poll, EPOLL_CTL_ADD, connection->fd, &event) < 0) die("epoll_ctl");
    }
    for (int i = 0; i < count; i++) send_requests(&connections[i], depth);

    uint64_t started = now_micros();
    uint64_t measure_from = started + (uint64_t)(warmup * 1e6);
    uint64_t stop_at = measure_from + (uint64_t)(duration * 1e6);
    static char buffer[READ_SIZE];
    struct epoll_event events[256];
    for (;;) {
        uint64_t now = now_micros();
        if (!measuring && now >= measure_from) measuring = 1;
        if (now >= stop_at) break;
        int ready = epoll_wait(poll, events, 256, 100);
        if (ready < 0 && errno != EINTR) die("epoll_wait");
        for (int e = 0; e < ready; e++) {
            struct connection *connection = events[e].data.ptr;
            int ended = 0;
            for (;;) {
                ssize_t got = read(connection->fd, buffer, sizeof(buffer));
                if (got > 0) {
                    ended += http_mode ? scan_http(connection, buffer, (size_t)got) : scan(connection, buffer, (size_t)got);
                    if ((size_t)got < sizeof(buffer)) break;
                } else if (got == 0) {
                    fprintf(stderr, "load_client: the server closed connection %d\n", connection->number);
                    return 1;
                } else {
                    if (errno == EAGAIN || errno == EINTR) break;
                    die("read");
                }
            }
            /* Keep DEPTH in flight: one new request per answer. */
            if (ended > 0) send_requests(connection, ended);
        }
    }
    double seconds = duration;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec
                 + (double)usage.ru_stime.tv_usec / 1e6;
    double elapsed = (double)(now_micros() - started) / 1e6;
    printf("{\"clientCpuPercent\":%.0f,\"requestsPerSecond\":%.0f,\"p50Micros\":%llu,\"p99Micros\":%llu,\"p999Micros\":%llu,"
           "\"maxMicros\":%llu,\"requests\":%llu,\"errors\":%llu,\"connections\":%d,\"depth\":%d,"
           "\"seconds\":%.1f,\"sockets\":%d",
           100 * cpu / elapsed, (double)answered / seconds, (unsigned long long)percentile(0.50), (unsigned long long)percentile(0.99),
           (unsigned long long)percentile(0.999), (unsigned long long)slowest, (unsigned long long)answered,
           (unsigned long long)errors, count, depth, seconds, socket_count);
    if (socket_count > 1) {
        printf(",\"perSocket\":[");
        for (int s = 0; s < socket_count; s++)
            printf("%s%llu", s ? "," : "", (unsigned long long)answered_by_socket[s]);
        printf("]");
    }
    printf("}\n");
    return errors > 0 ? 2 : 0;
}
