/// What an account may do: every account is a user; admins also moderate. Decided at login from the daemon's
/// configuration and the kernel's word on the peer, never stored, so a configuration change applies at the next
/// login.
public enum AccountRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// Posts, follows, reads, reports.
    case user
    /// Also reaches every `admin.*` method.
    case admin
}

/// Whether an account is in good standing.
public enum AccountStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Logs in and is seen.
    case active
    /// Suspended by an admin: it cannot log in, and what it wrote, liked and followed is left out of every
    /// read until it is unsuspended.
    case suspended
}
