#define _GNU_SOURCE
#include "CFileIdentity.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

static int from_statx(int dirfd, const char *path, int flags, twitterd_file_identity *identity) {
    struct statx found;
    if (statx(dirfd, path, flags | AT_STATX_SYNC_AS_STAT, STATX_INO, &found) != 0) return -1;
    identity->device = makedev(found.stx_dev_major, found.stx_dev_minor);
    identity->inode = found.stx_ino;
    return 0;
}

static int from_stat(const struct stat *found, twitterd_file_identity *identity) {
    identity->device = found->st_dev;
    identity->inode = found->st_ino;
    return 0;
}

int twitterd_path_identity(const char *path, twitterd_file_identity *identity) {
    if (from_statx(AT_FDCWD, path, 0, identity) == 0) return 0;
    if (errno != ENOSYS && errno != EPERM) return errno;
    struct stat found;
    if (stat(path, &found) != 0) return errno;
    return from_stat(&found, identity);
}

int twitterd_descriptor_identity(int fd, twitterd_file_identity *identity) {
    if (from_statx(fd, "", AT_EMPTY_PATH, identity) == 0) return 0;
    if (errno != ENOSYS && errno != EPERM) return errno;
    struct stat found;
    if (fstat(fd, &found) != 0) return errno;
    return from_stat(&found, identity);
}
