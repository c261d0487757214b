// fail_sync.so: an LD_PRELOAD library that makes syncs of a database's write-ahead log fail, as a disk that
// cannot write its pages makes them fail (EIO), from the moment a flag file exists. SyncFailureTests
// (Tests/EndToEndTests) runs the daemon under it, lets it start and serve, creates the flag, and checks that the
// daemon says it has failed and stops feeding the watchdog.
//
// While the file named by FAIL_SYNC_FLAG exists, fdatasync and fsync of any descriptor whose file's path ends in
// "-wal" return -1 with errno EIO; every other sync, and every sync before the flag, goes through. Nothing is
// written or dropped: only the answer of the sync changes.
//
// Build: cc -shared -fPIC -O1 -o fail_sync.so fail_sync.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

// Whether a sync of `fd` must fail now: the flag exists and the descriptor is a write-ahead log's.
static int must_fail(int fd) {
    const char *flag = getenv("FAIL_SYNC_FLAG");
    if (flag == NULL || access(flag, F_OK) != 0) return 0;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length < 4) return 0;
    path[length] = '\0';
    return strcmp(path + length - 4, "-wal") == 0;
}

int fsync(int fd) {
    if (real_fsync == NULL) real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    if (must_fail(fd)) {
        errno = EIO;
        return -1;
    }
    return real_fsync(fd);
}

int fdatasync(int fd) {
    if (real_fdatasync == NULL) real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    if (must_fail(fd)) {
        errno = EIO;
        return -1;
    }
    return real_fdatasync(fd);
}
