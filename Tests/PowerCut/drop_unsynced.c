// drop_unsynced.so: an LD_PRELOAD library that keeps, for the files of one database, what a power cut would leave
// of them: only what was synced. PowerCutTests (Tests/EndToEndTests) runs the daemon under it, kills it, and puts
// these copies in place of the files before starting it again.
//
// Every regular file whose path begins with DROP_UNSYNCED_PREFIX (a folder's path and a file name's beginning,
// "/tmp/x/twitterd.sqlite" for a database, its log and its -shm) is tracked, but SQLite's -shm, which no crash
// keeps, and the copies. Its writes go through to the file as usual, so the process reads what it wrote, and are
// also kept in memory, with their offsets, until fsync or fdatasync on any descriptor of that file; the sync
// applies the writes made before it began, in order, to FILE.synced, which starts as the file's content when
// the library first sees it written. So FILE.synced holds exactly the writes that a sync made durable.
//
// The model, and its limits: every write not synced is lost, none partly; a file's name is durable at once (no
// folder sync is needed), and a file unlinked goes at once with its copy (SQLite's rollback journal, used once
// as the database is made, ends so). Not tracked: O_TRUNC at open, renames (SQLite's files are written with
// pwrite and ftruncate only), and writes of other processes.
//
// Build: cc -shared -fPIC -O1 -o drop_unsynced.so drop_unsynced.c -ldl -lpthread
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
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
    size_t length;  // bytes written at offset; for a truncation, 0
    int truncates;  // 1: the file was cut to offset
    char bytes[];
};

struct tracked {
    struct tracked *next;
    char path[PATH_MAX];
    struct change *first, *last;
};

// Guards `files` and every tracked file's changes.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
// Syncs one at a time, so that their copies are written in the order their writes were taken.
static pthread_mutex_t syncing = PTHREAD_MUTEX_INITIALIZER;
static struct tracked *files;
// The resolved prefix of the tracked paths.
static char prefix[PATH_MAX];
static size_t prefix_length;
static int configured;

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static int (*real_ftruncate)(int, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_unlink)(const char *);

// The next definitions, looked up on first use: a library's constructor may write before this one's runs.
static void resolve(void) {
    if (real_unlink) return;
    real_write = dlsym(RTLD_NEXT, "write");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_writev = dlsym(RTLD_NEXT, "writev");
    real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_unlink = dlsym(RTLD_NEXT, "unlink");
}

__attribute__((constructor)) static void load(void) {
    resolve();
    // The folder resolved as /proc/self/fd shows paths; the name's beginning as it is.
    const char *given = getenv("DROP_UNSYNCED_PREFIX");
    const char *slash = given ? strrchr(given, '/') : NULL;
    if (!slash || slash == given || (size_t)(slash - given) >= sizeof prefix) return;
    char folder[PATH_MAX];
    memcpy(folder, given, (size_t)(slash - given));
    folder[slash - given] = 0;
    if (!realpath(folder, prefix) || strlen(prefix) + strlen(slash) >= sizeof prefix) return;
    strcat(prefix, slash);
    prefix_length = strlen(prefix);
    configured = 1;
}

static int ends_with(const char *text, const char *suffix) {
    size_t a = strlen(text), b = strlen(suffix);
    return a >= b && strcmp(text + a - b, suffix) == 0;
}

// FILE's copy, made at first sight from what FILE holds: written under a temporary name and renamed, so that a
// kill while copying leaves no half copy.
static void first_copy(int fd, const char *path) {
    char copy[PATH_MAX + 16], temporary[PATH_MAX + 16];
    snprintf(copy, sizeof copy, "%s.synced", path);
    snprintf(temporary, sizeof temporary, "%s.synced-new", path);
    int out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) abort();
    // Read through the descriptor at hand where it is readable: closing another descriptor of the file would drop
    // this process's POSIX locks on it, SQLite's among them.
    int in = fd, opened = 0;
    char buffer[65536];
    ssize_t got = pread(in, buffer, 0, 0);
    if (got < 0) {
        in = open(path, O_RDONLY | O_CLOEXEC);
        opened = 1;
        if (in < 0) abort();
    }
    off_t at = 0;
    while ((got = pread(in, buffer, sizeof buffer, at)) > 0) {
        if (real_write(out, buffer, (size_t)got) != got) abort();
        at += got;
    }
    if (got < 0) abort();
    if (opened) close(in);
    close(out);
    if (rename(temporary, copy) != 0) abort();
}

// The tracked file `fd` is open on, or NULL; under `lock`.
static struct tracked *tracked_file(int fd) {
    if (!configured) return NULL;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return NULL;
    path[length] = 0;
    if ((size_t)length < prefix_length || strncmp(path, prefix, prefix_length) != 0) return NULL;
    if (ends_with(path, "-shm") || strstr(path, ".synced") || ends_with(path, " (deleted)")) return NULL;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return NULL;
    for (struct tracked *file = files; file; file = file->next)
        if (strcmp(file->path, path) == 0) return file;
    // First seen: what the file holds now was there before this process wrote, so it counts as synced.
    struct tracked *file = calloc(1, sizeof *file);
    if (!file) abort();
    strcpy(file->path, path);
    first_copy(fd, path);
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

static void forget(struct change *changes) {
    for (struct change *change = changes, *next; change; change = next) {
        next = change->next;
        free(change);
    }
}

// A sync of `fd`: the writes kept before it began are durable once it returns, and go into the copy, in order.
// Writes meanwhile, from other threads, wait for the next sync.
static int sync_file(int fd, int (*real_sync)(int)) {
    pthread_mutex_lock(&syncing);
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);
    struct change *changes = file ? file->first : NULL;
    char copy[PATH_MAX + 16] = "";
    if (file) {
        file->first = file->last = NULL;
        snprintf(copy, sizeof copy, "%s.synced", file->path);
    }
    pthread_mutex_unlock(&lock);
    int result = real_sync(fd);
    int saved = errno;
    if (result != 0 && changes) {
        // Not synced: they wait for the next sync, before what was written since (if the file is still tracked).
        pthread_mutex_lock(&lock);
        struct tracked *still = tracked_file(fd);
        if (still) {
            struct change *tail = changes;
            while (tail->next) tail = tail->next;
            tail->next = still->first;
            if (!still->first) still->last = tail;
            still->first = changes;
        } else {
            forget(changes);
        }
        pthread_mutex_unlock(&lock);
        changes = NULL;
    }
    if (changes) {
        int out = open(copy, O_WRONLY | O_CLOEXEC);
        for (struct change *change = changes; change && out >= 0; change = change->next) {
            if (change->truncates) {
                if (real_ftruncate(out, change->offset) != 0) abort();
            } else if (real_pwrite(out, change->bytes, change->length, change->offset) != (ssize_t)change->length) {
                abort();
            }
        }
        if (out >= 0) close(out);  // Gone only if the file was unlinked meanwhile, and its copy with it.
        forget(changes);
    }
    pthread_mutex_unlock(&syncing);
    errno = saved;
    return result;
}

ssize_t pwrite(int fd, const void *bytes, size_t length, off_t offset) {
    resolve();
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);  // First, so that a first copy holds the file as it was.
    if (!file) {
        pthread_mutex_unlock(&lock);
        return real_pwrite(fd, bytes, length, offset);
    }
    ssize_t written = real_pwrite(fd, bytes, length, offset);
    int saved = errno;
    if (written > 0) remember(file, offset, bytes, (size_t)written, 0);
    pthread_mutex_unlock(&lock);
    errno = saved;
    return written;
}

ssize_t pwrite64(int fd, const void *bytes, size_t length, off64_t offset) {
    return pwrite(fd, bytes, length, (off_t)offset);
}

ssize_t write(int fd, const void *bytes, size_t length) {
    resolve();
    if (!configured) return real_write(fd, bytes, length);
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);
    if (!file) {
        pthread_mutex_unlock(&lock);
        return real_write(fd, bytes, length);
    }
    ssize_t written = real_write(fd, bytes, length);
    int saved = errno;
    // O_APPEND writes land at the end, wherever the offset was: where the write ended says where it began.
    if (written > 0) remember(file, lseek(fd, 0, SEEK_CUR) - written, bytes, (size_t)written, 0);
    pthread_mutex_unlock(&lock);
    errno = saved;
    return written;
}

ssize_t writev(int fd, const struct iovec *parts, int count) {
    resolve();
    if (!configured) return real_writev(fd, parts, count);
    pthread_mutex_lock(&lock);
    struct tracked *file = tracked_file(fd);
    if (!file) {
        pthread_mutex_unlock(&lock);
        return real_writev(fd, parts, count);
    }
    ssize_t written = real_writev(fd, parts, count);
    int saved = errno;
    if (written > 0) {
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
    resolve();
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
    resolve();
    return sync_file(fd, real_fsync);
}

int fdatasync(int fd) {
    resolve();
    return sync_file(fd, real_fdatasync);
}

// SQLite removes its rollback journal with unlink: the file and its copy go, and so do its kept writes.
int unlink(const char *path) {
    resolve();
    pthread_mutex_lock(&lock);
    char resolved[PATH_MAX];
    int known = configured && realpath(path, resolved) != NULL;
    int result = real_unlink(path);
    int saved = errno;
    if (known && result == 0) {
        for (struct tracked **link = &files; *link; link = &(*link)->next) {
            struct tracked *file = *link;
            if (strcmp(file->path, resolved) != 0) continue;
            forget(file->first);
            char copy[PATH_MAX + 16];
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
