import Foundation

/// A posted message.
public struct Tweet: Sendable, Hashable, Codable {
    /// Its id; ids grow with time, so ordering by id is ordering by posting.
    public var id: Int64
    /// Who posted it.
    public var author: Author
    /// The text: trimmed, NFC, 1 to 140 characters.
    public var text: String
    /// When it was posted.
    public var createdAt: Date

    /// Creates a tweet.
    public init(id: Int64, author: Author, text: String, createdAt: Date) {
        self.id = id
        self.author = author
        self.text = text
        self.createdAt = createdAt
    }

    /// The public face of a tweet's author.
    public struct Author: Sendable, Hashable, Codable {
        /// The author's account id.
        public var id: Int64
        /// The author's username.
        public var username: String

        /// Creates an author.
        public init(id: Int64, username: String) {
            self.id = id
            self.username = username
        }
    }
}
