/*
 * The physical limit for a line protocol on this machine: a single-threaded epoll server on a Unix socket
 * that answers every line with the same fixed line, doing no other work. twbench drives it exactly as it
 * drives twitterd's system.ping, so the ratio between the two is what twitterd's own work costs.
 *
 * With ANSWER_FILE, the fixed line is that file's (a newline is added if it has none): given twitterd's own
 * answer to a request (a tweets.fetch page), the server answers the same bytes, the limit for that request.
 *
 * cc -O2 -o line_server line_server.c && ./line_server /tmp/limit.sock [ANSWER_FILE]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define ANSWER "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":\"pong\"}\n"
#define MAX_EVENTS 256
#define BUFFER_SIZE 65536

static void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s SOCKET [ANSWER_FILE]\n", argv[0]);
        return 64;
    }
    static char fixed[BUFFER_SIZE];
    const char *answer = ANSWER;
    size_t answer_length = sizeof(ANSWER) - 1;
    if (argc == 3) {
        FILE *file = fopen(argv[2], "rb");
        if (!file) {
            perror(argv[2]);
            return 66;
        }
        answer_length = fread(fixed, 1, sizeof(fixed) - 1, file);
        int longer = fgetc(file) != EOF;
        fclose(file);
        if (answer_length == 0 || longer) {
            fprintf(stderr, "line_server: %s is empty or over %d bytes\n", argv[2], BUFFER_SIZE - 1);
            return 65;
        }
        if (fixed[answer_length - 1] != '\n') fixed[answer_length++] = '\n';
        answer = fixed;
    }
    signal(SIGPIPE, SIG_IGN);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof(address.sun_path) - 1);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(listener, 4096) != 0) {
        perror("bind/listen");
        return 1;
    }
    set_nonblocking(listener);
    int poller = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event);
    static char input[BUFFER_SIZE];
    static char output[BUFFER_SIZE * 2];
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int ready = epoll_wait(poller, events, MAX_EVENTS, -1);
        for (int i = 0; i < ready; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept(listener, NULL, NULL)) >= 0) {
                    set_nonblocking(client);
                    struct epoll_event client_event = {.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(poller, EPOLL_CTL_ADD, client, &client_event);
                }
                continue;
            }
            ssize_t count = read(fd, input, sizeof(input));
            if (count <= 0) {
                if (count < 0 && errno == EAGAIN) continue;
                close(fd);
                continue;
            }
            /* One fixed answer per newline; a line split across reads is counted when its newline arrives. */
            size_t lines = 0;
            for (ssize_t j = 0; j < count; j++) lines += input[j] == '\n';
            while (lines > 0) {
                size_t batch = lines < sizeof(output) / answer_length ? lines : sizeof(output) / answer_length;
                size_t length = 0;
                for (size_t j = 0; j < batch; j++) {
                    memcpy(output + length, answer, answer_length);
                    length += answer_length;
                }
                size_t sent = 0;
                while (sent < length) {
                    ssize_t written = write(fd, output + sent, length - sent);
                    if (written < 0) {
                        if (errno == EAGAIN) continue;
                        break;
                    }
                    sent += (size_t)written;
                }
                lines -= batch;
            }
        }
    }
}
