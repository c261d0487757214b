// @MemberwiseInit
/// Where twitterd and twctl look for the socket and the database when nobody says otherwise.
///
/// The rules follow systemd's directories first, then the system locations for root, then the XDG
/// directories of an ordinary user, so the daemon and the client agree without configuration.
public struct DefaultPaths: Sendable, Equatable {
    /// The environment the paths derive from.
    public var environment: [String: String]
    /// The effective user id; 0 picks the system locations.
    public var userID: UInt32

    /// `$RUNTIME_DIRECTORY/twitterd.sock`, else `/run/twitterd/twitterd.sock` for root, else
    /// `$XDG_RUNTIME_DIR/twitterd/twitterd.sock` (or `/tmp/twitterd-UID/` when that is unset).
    public var socketPath: String {
        if let runtime = firstDirectory("RUNTIME_DIRECTORY") { return runtime + "/twitterd.sock" }
        if userID == 0 { return "/run/twitterd/twitterd.sock" }
        if let runtime = firstDirectory("XDG_RUNTIME_DIR") { return runtime + "/twitterd/twitterd.sock" }
        return "/tmp/twitterd-\(userID)/twitterd.sock"
    }

    /// `$STATE_DIRECTORY/twitterd.sqlite`, else `/var/lib/twitterd/twitterd.sqlite` for root, else
    /// `$XDG_STATE_HOME/twitterd/twitterd.sqlite` (or `~/.local/state/twitterd/`).
    public var databasePath: String {
        stateDirectory + "/twitterd.sqlite"
    }

    /// The folder for the database and the token key.
    public var stateDirectory: String {
        if let state = firstDirectory("STATE_DIRECTORY") { return state }
        if userID == 0 { return "/var/lib/twitterd" }
        if let state = firstDirectory("XDG_STATE_HOME") { return state + "/twitterd" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/twitterd-\(userID)"
        return home + "/.local/state/twitterd"
    }

    /// systemd passes several directories separated by colons when a unit names more than one.
    private func firstDirectory(_ name: String) -> String? {
        guard let value = environment[name], let first = value.split(separator: ":").first, !first.isEmpty else {
            return nil
        }
        return String(first)
    }
}
