import Foundation
import TwitterServer

extension MigrateData {
    /// The key files a SQLite state folder holds and where the daemons on PostgreSQL will read each: by one rule,
    /// not by name, so a key a later feature adds (`messages.key`) is carried like `token.key`.
    ///
    /// The rule: every regular file whose name ends in `.key` beside the SQLite file goes to the same name in the
    /// daemons' state folder, except where `[database] token_key_file` names the token key's place elsewhere.
    /// Rows that were sealed or hashed with a key (sessions, personal tokens, reset codes) are useless without it.
    struct KeyFiles {
        /// One key file and the path it goes to.
        struct Move: Equatable {
            let source: String
            let destination: String
        }

        /// The moves still to make; keys already in place (the same file, or the same bytes) are left out.
        let moves: [Move]

        /// Plans the moves from the folder of `databasePath` into `stateFolder`, with the token key going to
        /// `tokenKeyFile` when one is configured; throws, before anything is copied, when a destination already
        /// holds another key, or cannot be written.
        static func plan(databasePath: String, stateFolder: String, tokenKeyFile: String?) throws -> KeyFiles {
            let sourceFolder = PrivateFileWriter.folder(of: databasePath)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: sourceFolder)) ?? []
            let tokenKeyName = (StateFolder.tokenKeyPath(databasePath: databasePath) as NSString).lastPathComponent
            var moves: [Move] = []
            for name in names.sorted() where name.hasSuffix(".key") && !name.hasPrefix(".") {
                let source = sourceFolder + "/" + name
                guard isRegularFile(source) else { continue }
                let destination =
                    name == tokenKeyName ? tokenKeyFile ?? stateFolder + "/" + name : stateFolder + "/" + name
                if Backup.isSameFile(source, destination) { continue }
                if PrivateFileWriter.exists(destination) {
                    guard
                        FileManager.default.contents(atPath: source)
                            == FileManager.default.contents(atPath: destination)
                    else {
                        throw MaintenanceFailure(
                            """
                            \(destination) holds another key than \(source), which the rows of \(databasePath) were \
                            made with: daemons on PostgreSQL reading it would refuse every session and personal token. \
                            Nothing was copied. Move \(destination) away if nothing uses it (or copy \(source) over \
                            it), or name the state folder the daemons will use with --state-folder
                            """)
                    }
                    continue
                }
                let folder = PrivateFileWriter.folder(of: destination)
                guard access(folder, W_OK) == 0 || !PrivateFileWriter.exists(folder) else {
                    throw MaintenanceFailure(
                        """
                        cannot write \(destination), where the daemons on PostgreSQL will read the key \(source): \
                        nothing was copied. Run as a user who may write \(folder), or name another state folder with \
                        --state-folder
                        """)
                }
                moves.append(Move(source: source, destination: destination))
            }
            return KeyFiles(moves: moves)
        }

        /// Copies each key (0600) and gives it the owner of the folder it goes into, so a daemon running as that
        /// folder's owner (`twitterd`, under the unit) reads it even when root ran the migration.
        func carry() throws {
            for move in moves {
                let folder = PrivateFileWriter.folder(of: move.destination)
                if !PrivateFileWriter.exists(folder) {
                    _ = try StateFolder.prepareFolder(databasePath: folder + "/twitterd.sqlite")
                }
                try PrivateFileWriter.copy(move.source, to: move.destination, replacing: false)
                var status = stat()
                if geteuid() == 0, stat(folder, &status) == 0 {
                    _ = chown(move.destination, status.st_uid, status.st_gid)
                }
            }
        }

        private static func isRegularFile(_ path: String) -> Bool {
            var status = stat()
            return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        }
    }
}
