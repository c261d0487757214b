// @MemberwiseInit
/// An account as a tweet, a message or a conversation names it: its id, and its username now.
public struct AccountName: Sendable, Hashable, Codable {
    /// The account's id.
    public var id: Int64
    /// Its username.
    public var username: String
}
