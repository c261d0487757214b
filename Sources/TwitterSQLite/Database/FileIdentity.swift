import CFileIdentity

/// Which file a name or a descriptor stands for (its device and inode), read without asking for the file's
/// times. Asking for them, as `stat` and `fstat` do, makes the file's next write dirty its inode on Linux 6.13
/// and later, and so every `fdatasync` after it a journal commit (CFileIdentity.h says how).
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// Why a file's identity could not be read: errno's value, as the call returned it.
    struct Failure: Error, Equatable {
        let code: Int32
    }

    /// The file at `path`.
    init(path: String) throws(Failure) {
        var found = twitterd_file_identity()
        let code = twitterd_path_identity(path, &found)
        guard code == 0 else { throw Failure(code: code) }
        self.init(found)
    }

    /// The file the descriptor holds.
    init(descriptor: Int32) throws(Failure) {
        var found = twitterd_file_identity()
        let code = twitterd_descriptor_identity(descriptor, &found)
        guard code == 0 else { throw Failure(code: code) }
        self.init(found)
    }

    private init(_ found: twitterd_file_identity) {
        device = found.device
        inode = found.inode
    }
}
