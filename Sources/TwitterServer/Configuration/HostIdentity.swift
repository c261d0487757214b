import Foundation

/// The stable identity of the daemon's machine, which names its local uids in the database.
///
/// A uid means a person only on its own machine: uid 1000 on host A and uid 1000 on host B are two people, and
/// daemons on several hosts may share one PostgreSQL database. So everything a uid names (a peer link, the login
/// throttle's uid keys, a signup bucket) is keyed by (host, uid). The host is `[database] host_id` when set, else
/// systemd's machine id (/etc/machine-id, or D-Bus's copy of it), which outlives reboots and renames.
public enum HostIdentity {
    /// Where the machine id is looked for, in order.
    static let machineIDFiles = ["/etc/machine-id", "/var/lib/dbus/machine-id"]

    /// What a configured host id must be.
    public static let rule = "must be 1 to 128 letters, digits, '.', '-' or '_'"

    /// Whether `host` may name a host: short and printable, since it is part of stored keys.
    public static func isValid(_ host: String) -> Bool {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        return !host.isEmpty && host.utf8.count <= 128 && host.unicodeScalars.allSatisfy(allowed.contains)
    }

    /// The configured host id, else the machine id; throws when neither is there, since guessing one (the host
    /// name changes, a random one changes at every start) would hand one machine's uids to another's.
    public static func resolve(configured: String?) throws(ConfigurationError) -> String {
        if let configured { return configured }
        for file in machineIDFiles {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if isValid(id) { return id }
        }
        throw ConfigurationError(
            key: "database.host_id",
            problem: "no /etc/machine-id to name this host's uids by; set [database] host_id (\(rule))")
    }
}
