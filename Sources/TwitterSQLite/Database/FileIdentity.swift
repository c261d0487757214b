import CFileIdentity

/// Which file a name or a descriptor stands for (its device and inode), read without asking for the file's
/// times. Asking for them, as `stat` and `fstat` do, makes the file's next write dirty its inode on Linux 6.13
/// and later, and so every `fdatasync` after it a journal commit (CFileIdentity.h says how).
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path`; nil with `errno` set when there is none or it cannot be read.
    init?(path: String) {
        var found = twitterd_file_identity()
        guard twitterd_path_identity(path, &found) == 0 else { return nil }
        self.init(found)
    }

    /// The file the descriptor holds; nil with `errno` set when the descriptor is not open.
    init?(descriptor: Int32) {
        var found = twitterd_file_identity()
        guard twitterd_descriptor_identity(descriptor, &found) == 0 else { return nil }
        self.init(found)
    }

    private init(_ found: twitterd_file_identity) {
        device = found.device
        inode = found.inode
    }
}
