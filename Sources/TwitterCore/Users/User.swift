import Foundation

// @MemberwiseInit
/// A registered account as its owner sees it.
public struct User: Sendable, Hashable, Codable {
    /// The account's id.
    public var id: Int64
    /// The public handle, `^[A-Za-z0-9_]{1,15}$`, unique regardless of case.
    public var username: String
    /// The e-mail address, unique regardless of case; never shown to other users.
    public var email: String
    /// When the account was created.
    public var createdAt: Date
}
