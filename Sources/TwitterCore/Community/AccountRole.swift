/// What an account may do: every account is a user; admins also moderate. The role is stored with the account (its
/// id, never its name, which can change hands) and granted or revoked by an admin; root and the members of the
/// `[admin] groups` are admins besides when the kernel vouches that they are the account's own Unix user.
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
