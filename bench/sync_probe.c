// sync_probe: what one fdatasync of a write-ahead log costs on this disk, and what asking for the file's times
// between syncs adds (bench/analysis.md, "The log's sync, twice as long as it had to be").
//
//   cc -O2 -o /tmp/sync_probe bench/sync_probe.c && /tmp/sync_probe FOLDER [SYNCS]
//
// Writes three log frames (24 + 4,096 bytes each, as SQLite writes a post's three pages) over a file already that
// long, then fdatasync, SYNCS times (default 2,000) in each of three ways: nothing asked between syncs; stat and
// fstat of the log before each sync, as twitterd's syncer did; statx asking for the inode only, as it does now.
// Prints each way's time for a post's writes and its sync (p10, p50, p90, microseconds). Since Linux 6.13 a file whose change time was asked
// for gets a fine-grained one at its next write, so each sync of the second way also commits the inode to the
// journal; a kernel without multigrain timestamps shows the three alike.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { frame = 4096 + 24, frames = 3 };
enum way { nothing, stat_and_fstat, statx_inode };

static double micros(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void probe(const char *folder, int syncs, enum way way, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/sync_probe.XXXXXX", folder);
    int fd = mkstemp(path);
    if (fd < 0) { perror("sync_probe: mkstemp"); exit(1); }
    static char page[frame];
    memset(page, 'x', sizeof page);
    // The log is written over, as SQLite's is once it starts over: the file's size never changes.
    for (off_t at = 0; at < (off_t)frame * frames * syncs; at += frame) {
        if (pwrite(fd, page, frame, at) != frame) { perror("sync_probe: pwrite"); exit(1); }
    }
    fsync(fd);
    double *took = malloc(sizeof(double) * syncs);
    off_t at = 0;
    for (int i = 0; i < syncs; i++) {
        double start = micros();
        for (int f = 0; f < frames; f++, at += frame) {
            if (pwrite(fd, page, 24, at) != 24 || pwrite(fd, page + 24, 4096, at + 24) != 4096) {
                perror("sync_probe: pwrite");
                exit(1);
            }
        }
        if (way == stat_and_fstat) {
            struct stat byName, held;
            stat(path, &byName);
            fstat(fd, &held);
        } else if (way == statx_inode) {
            struct statx byName, held;
            statx(AT_FDCWD, path, 0, STATX_INO, &byName);
            statx(fd, "", AT_EMPTY_PATH, STATX_INO, &held);
        }
        if (fdatasync(fd) != 0) { perror("sync_probe: fdatasync"); exit(1); }
        took[i] = micros() - start;
    }
    close(fd);
    unlink(path);
    qsort(took, syncs, sizeof(double), ascending);
    printf("%-28s p10 %4.0f  p50 %4.0f  p90 %4.0f µs\n", name, took[syncs / 10], took[syncs / 2], took[syncs * 9 / 10]);
    free(took);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: sync_probe FOLDER [SYNCS]\n"); return 64; }
    int syncs = argc > 2 ? atoi(argv[2]) : 2000;
    if (syncs < 10) syncs = 10;
    probe(argv[1], syncs, nothing, "nothing asked");
    probe(argv[1], syncs, stat_and_fstat, "stat + fstat (before)");
    probe(argv[1], syncs, statx_inode, "statx, inode only (now)");
    return 0;
}
