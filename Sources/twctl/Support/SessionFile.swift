import Foundation

/// Where twctl keeps its session tokens between runs: one per socket path, in a 0600 file in a 0700 folder,
/// replaced atomically so a crash never leaves half a file.
struct SessionFile {
    struct Entry: Codable, Equatable {
        var token: String
        var username: String
    }

    private struct Contents: Codable {
        var sessions: [String: Entry] = [:]
    }

    let path: String

    /// `$XDG_CONFIG_HOME/twctl/session.json`, else `~/.config/twctl/session.json`.
    static var standard: SessionFile {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return SessionFile(path: base + "/twctl/session.json")
    }

    func entry(for socket: String) -> Entry? {
        read().sessions[socket]
    }

    func save(_ entry: Entry, for socket: String) throws {
        var contents = read()
        contents.sessions[socket] = entry
        try write(contents)
    }

    func remove(for socket: String) throws {
        var contents = read()
        guard contents.sessions.removeValue(forKey: socket) != nil else { return }
        try write(contents)
    }

    private func read() -> Contents {
        guard let data = FileManager.default.contents(atPath: path),
            let contents = try? JSONDecoder().decode(Contents.self, from: data)
        else { return Contents() }
        return contents
    }

    private func write(_ contents: Contents) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
        )
        chmod(folder, 0o700)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(contents)
        let temporary = folder + "/.session.json.\(getpid())"
        // Created 0600 from the start: the token is never readable by others, not even for a moment.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
