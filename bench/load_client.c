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
};

static struct connection connections[MAX_CONNECTIONS];
static uint32_t histogram[BUCKETS];
static uint64_t answered, errors, slowest;
static uint64_t answered_by_socket[MAX_SOCKETS];
static int measuring;
static char request[8192];
static size_t request_length;
static int resp_mode;

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
        memcpy(batch + length, request, request_length);
        length += request_length;
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
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof(address.sun_path) - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) < 0) die(path);
    return fd;
}

/* Sends the login line and reads its one-line answer, blocking: before the clock starts. */
static void log_in(struct connection *connection, const char *template) {
    char line[4096];
    int length = snprintf(line, sizeof(line) - 1, template, connection->number);
    line[length++] = '\n';
    write_all(connection->fd, line, (size_t)length);
    char answer[65536];
    size_t have = 0;
    while (have < sizeof(answer) - 1) {
        ssize_t got = read(connection->fd, answer + have, sizeof(answer) - 1 - have);
        if (got <= 0) die("login answer");
        have += (size_t)got;
        if (memchr(answer, '\n', have)) break;
    }
    answer[have] = 0;
    if (strstr(answer, "\"error\"")) {
        fprintf(stderr, "load_client: login of connection %d failed: %s", connection->number, answer);
        exit(1);
    }
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
    const char *login = NULL, *payload = NULL;
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
        else if (argv[i][0] != '-' && !payload) payload = argv[i];
        else {
            fprintf(stderr, "load_client: unknown argument %s\n", argv[i]);
            return 64;
        }
    }
    if (socket_count == 0 || !payload || count < 1 || count > MAX_CONNECTIONS || depth < 1 || depth > MAX_DEPTH) {
        fprintf(stderr, "usage: load_client --socket PATH [--socket PATH…] [--connections 1-%d] [--depth 1-%d] "
                        "[--duration S] [--warmup S] [--resp] [--login LINE] REQUEST\n", MAX_CONNECTIONS, MAX_DEPTH);
        return 64;
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
    for (int i = 0; i < count; i++) {
        struct connection *connection = &connections[i];
        connection->socket_index = i % socket_count;
        connection->fd = connect_to(paths[connection->socket_index]);
        connection->number = i + 1;
        if (login) log_in(connection, login);
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
                    ended += scan(connection, buffer, (size_t)got);
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
