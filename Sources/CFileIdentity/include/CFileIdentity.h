#ifndef TWITTERD_C_FILE_IDENTITY_H
#define TWITTERD_C_FILE_IDENTITY_H

#include <stdint.h>

/// Which file a name or a descriptor stands for, asked of the kernel without asking for the file's times.
///
/// `stat` and `fstat` ask for every field, the change time too, and since Linux 6.13 (multigrain timestamps) a
/// file whose change time was asked for gets a fine-grained one at its next write: the write dirties the inode,
/// and the next `fdatasync` must commit it to ext4's journal. The write-ahead log's syncer checks which file it
/// holds before every sync; with `stat` that was one journal block written and flushed per post (twice the sync's
/// time: bench/analysis.md, "The log's sync, twice as long as it had to be"). `statx` asking for the inode number
/// only leaves the times alone. Where `statx` is missing (ENOSYS) or refused by a filter (EPERM), these fall back
/// to `stat` and `fstat`.
typedef struct {
    uint64_t device;
    uint64_t inode;
} twitterd_file_identity;

/// The file at `path`: 0, or the error number (errno's value), so that nothing between the call and the caller's
/// reading of it can change it.
int twitterd_path_identity(const char *path, twitterd_file_identity *identity);

/// The file the descriptor `fd` holds: 0, or the error number.
int twitterd_descriptor_identity(int fd, twitterd_file_identity *identity);

#endif
