import Foundation

// @MemberwiseInit
/// A list: accounts one owner gathers, whose tweets `timeline.list` shows. A private list is known to its owner
/// alone: to everyone else it does not exist.
public struct UserList: Sendable, Hashable, Codable {
    /// The list's id.
    public var id: Int64
    /// 1 to 25 characters, one line.
    public var name: String
    /// 0 to 100 characters, one line.
    public var description: String
    /// Whether only the owner may see it.
    public var isPrivate: Bool
    /// Who made it, and alone may change it.
    public var owner: Tweet.Author
    /// How many members it has: the rows, kept exact by every write.
    public var membersCount: Int
    /// When it was made.
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description, isPrivate = "private", owner, membersCount, createdAt
    }

    /// Whether `reader` may know the list exists: its owner always; anyone else when it is public and no block
    /// stands between them and the owner (`visibility` is the reader's).
    public func isVisible(to reader: Int64, visibility: TweetVisibility) -> Bool {
        visibility.allowsList(ownedBy: owner.id, isPrivate: isPrivate, reader: reader)
    }
}

// @MemberwiseInit
/// A new list as its owner asks for it, normalised and checked by `ListRules.draft`.
public struct ListDraft: Sendable, Equatable {
    /// The name.
    public var name: String
    /// The description; empty when none.
    public var description: String = ""
    /// Whether it is private.
    public var isPrivate: Bool = false
}

// @MemberwiseInit
/// A change to a list: nil members are left alone.
public struct ListPatch: Sendable, Equatable {
    /// A new name.
    public var name: String?
    /// A new description.
    public var description: String?
    /// Private or public.
    public var isPrivate: Bool?
}
