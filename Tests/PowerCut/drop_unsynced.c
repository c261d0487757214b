// drop_unsynced.so: an LD_PRELOAD library that keeps, for the files of one folder, what a power cut would leave
// of them: only what was synced. PowerCutTests (Tests/EndToEndTests) runs the daemon under it, kills it, and
// puts these copies in place of the files before starting it again.
//
// Every regular file whose path begins with DROP_UNSYNCED_PREFIX (a folder's path and a file name's beginning,
// "/tmp/x/twitterd.sqlite" for a database, its log and its -shm) is tracked, but SQLite's -shm, which no crash
// keeps, and the copies. Its writes go through to the file as usual, so the process reads what it wrote, and are also kept in
// memory, with their offsets, until fsync or fdatasync on any descriptor of that file; the sync applies them,
// in order, to FILE.synced, which starts as the file's content when the library first sees it written. So
// FILE.synced holds exactly the writes that a sync made durable, and none since. A file unlinked goes with its
// copy (SQLite's rollback journal, used once as the database is made, ends so). Not tracked: O_TRUNC at open,
// renames (SQLite's files are written with pwrite and ftruncate only), and writes of other processes.
//
// Build: cc -shared -fPIC -O1 -o drop_unsynced.so drop_unsynced.c -ldl -lpthread
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

struct change {
    struct change *next;
    off_t offset;
    size_t length;   // bytes written at offset; for a truncation, 0
    int truncates;   // 1: the file was cut to offset
    char bytes[];
};

struct tracked {
    struct tracked *next;
    char path[PATH_MAX];
    struct change *first, *last;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct tracked *files;
// The resolved prefix of the tracked paths.
static char folder[PATH_MAX];
static size_t folder_length;
static int configured = -1;

static int (*real_unlink)(const char *);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static int (*real_ftruncate)(int, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

__attribute__((constructor)) static void load(void) {
    real_unlink = dlsym(RTLD_NEXT, "unlink");
    real_write = dlsym(RTLD_NEXT, "write");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
    real_writev = dlsym(RTLD_NEXT, "writev");
    real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    // The folder resolved as /proc/self/fd shows paths; the name's beginning as it is.
    const char *prefix = getenv("DROP_UNSYNCED_PREFIX");
    const char *slash = prefix ? strrchr(prefix, '/') : NULL;
    configured = 0;
    if (slash && slash > prefix && (size_t)(slash - prefix) < sizeof folder) {
        char directory[PATH_MAX];
        memcpy(directory, prefix, (size_t)(slash - prefix));
        directory[slash - prefix] = 0;
        if (realpath(directory, folder) && strlen(folder) + strlen(slash) < sizeof folder) {
            strcat(folder, slash);
            folder_length = strlen(folder);
            configured = 1;
        }
    }
}

static int ends_with(const char *text, const char *suffix) {
    size_t a = strlen(text), b = strlen(suffix);
    return a >= b && strcmp(text + a - b, suffix) == 0;
}

// The tracked file `fd` is open on, or NULL; under `lock`.
static struct tracked *tracked_file(int fd) {
    if (configured != 1) return NULL;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return NULL;
    path[length] = 0;
    if ((size_t)length < folder_length || strncmp(path, folder, folder_length) != 0) return NULL;
    if (ends_with(path, "-shm") || ends_with(path, ".synced")) return NULL;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return NULL;
    for (struct tracked *file = files; file; file = file->next)
        if (strcmp(file->path, path) == 0) return file;
    // First seen: what the file holds now was there before this process wrote, so it counts as synced.
    struct tracked *file = calloc(1, sizeof *file);
    if (!file) abort();
    strcpy(file->path, path);
    char copy[PATH_MAX + 8];
    snprintf(copy, sizeof copy, "%s.synced", path);
    int out = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (out < 0 || in < 0) abort();
    char buffer[65536];
    ssize_t got;
    while ((got = read(in, buffer, sizeof buffer)) > 0)
        if (real_write(out, buffer, (size_t)got) != got) abort();
    close(in);
    close(out);
    file->next = files;
    files = file;
    return file;
}

static void remember(struct tracked *file, off_t offset, const void *bytes, size_t length, int truncates) {
    struct change *change = malloc(sizeof *change + length);
    if (!change) abort();
    change->next = NULL;
    change->offset = offset;
    change->length = length;
    change->truncates = truncates;
    if (length) memcpy(change->bytes, bytes, length);
    if (file->last) file->last->next = change; else file->first = change;
    file->last = change;
}

// Syncs one at a time, so that their copies are written in the order their writes were taken.
static pthread_mutex_t syncing = PTHREAD_MUTEX_INITIALIZER;

// A sync of `fd`: the writes kept before it began are durable once it returns, and go into the copy, in order.
// Writes meanwhile, from other threads, wait for the next sync.
static int sync_file(int fd, int (*real_sync)(int)) {
    pthread_mutex_lock(&syncing);
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);
    struct change *changes = file ? file->first : NULL;
    if (file) file->first = file->last = NULL;
    pthread_mutex_unlock(&lock);
    int result = real_sync(fd);
    int saved = errno;
    if (result != 0 && changes) {
        // Not synced: they wait for the next sync, before what was written since.
        pthread_mutex_lock(&lock);
        struct change *tail = changes;
        while (tail->next) tail = tail->next;
        tail->next = file->first;
        if (!file->first) file->last = tail;
        file->first = changes;
        pthread_mutex_unlock(&lock);
        changes = NULL;
    }
    if (changes) {
        char copy[PATH_MAX + 8];
        snprintf(copy, sizeof copy, "%s.synced", file->path);
        int out = open(copy, O_WRONLY | O_CLOEXEC);
        if (out < 0) abort();
        for (struct change *change = changes, *next; change; change = next) {
            next = change->next;
            if (change->truncates) {
                if (real_ftruncate(out, change->offset) != 0) abort();
            } else if (real_pwrite(out, change->bytes, change->length, change->offset) != (ssize_t)change->length) {
                abort();
            }
            free(change);
        }
        close(out);
    }
    pthread_mutex_unlock(&syncing);
    errno = saved;
    return result;
}

ssize_t pwrite(int fd, const void *bytes, size_t length, off_t offset) {
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);  // First, so that a first copy holds the file as it was.
    ssize_t written = real_pwrite(fd, bytes, length, offset);
    int saved = errno;
    if (file && written > 0) remember(file, offset, bytes, (size_t)written, 0);
    pthread_mutex_unlock(&lock);
    errno = saved;
    return written;
}

ssize_t pwrite64(int fd, const void *bytes, size_t length, off64_t offset) {
    return pwrite(fd, bytes, length, (off_t)offset);
}

ssize_t write(int fd, const void *bytes, size_t length) {
    if (configured != 1) return real_write(fd, bytes, length);
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);
    ssize_t written = real_write(fd, bytes, length);
    int saved = errno;
    if (file && written > 0) {
        // O_APPEND writes land at the end, wherever the offset was.
        off_t end = lseek(fd, 0, SEEK_CUR);
        remember(file, end - written, bytes, (size_t)written, 0);
    }
    pthread_mutex_unlock(&lock);
    errno = saved;
    return written;
}

ssize_t writev(int fd, const struct iovec *parts, int count) {
    if (configured != 1) return real_writev(fd, parts, count);
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);
    ssize_t written = real_writev(fd, parts, count);
    int saved = errno;
    if (file && written > 0) {
        off_t at = lseek(fd, 0, SEEK_CUR) - written;
        size_t left = (size_t)written;
        for (int index = 0; index < count && left > 0; index++) {
            size_t part = parts[index].iov_len < left ? parts[index].iov_len : left;
            remember(file, at, parts[index].iov_base, part, 0);
            at += (off_t)part;
            left -= part;
        }
    }
    pthread_mutex_unlock(&lock);
    errno = saved;
    return written;
}

int ftruncate(int fd, off_t length) {
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);
    int result = real_ftruncate(fd, length);
    int saved = errno;
    if (file && result == 0) remember(file, length, NULL, 0, 1);
    pthread_mutex_unlock(&lock);
    errno = saved;
    return result;
}

int ftruncate64(int fd, off64_t length) {
    return ftruncate(fd, (off_t)length);
}

int fsync(int fd) {
    return sync_file(fd, real_fsync);
}

int fdatasync(int fd) {
    return sync_file(fd, real_fdatasync);
}

// SQLite removes its rollback journal with unlink: the file and its copy go, and so do its kept writes.
int unlink(const char *path) {
    pthread_mutex_lock(&lock);
    char resolved[PATH_MAX];
    int known = configured == 1 && realpath(path, resolved) != NULL;
    int result = real_unlink(path);
    int saved = errno;
    if (known && result == 0) {
        for (struct tracked **link = &files; *link; link = &(*link)->next) {
            struct tracked *file = *link;
            if (strcmp(file->path, resolved) != 0) continue;
            for (struct change *change = file->first, *next; change; change = next) {
                next = change->next;
                free(change);
            }
            char copy[PATH_MAX + 8];
            snprintf(copy, sizeof copy, "%s.synced", resolved);
            real_unlink(copy);
            *link = file->next;
            free(file);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    errno = saved;
    return result;
}
