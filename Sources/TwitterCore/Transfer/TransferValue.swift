import Foundation

/// One value of a row copied from one store to another by `twitterd migrate-data`. The SQLite reader makes them
/// and the PostgreSQL importer binds them, so neither module needs the other's database library.
public enum TransferValue: Sendable, Equatable {
    /// SQL NULL.
    case null
    /// An integer column (ids, counters, ages).
    case integer(Int64)
    /// A floating-point column (a rate bucket's tokens).
    case real(Double)
    /// A text column.
    case text(String)
    /// A blob column (a token's or a reset code's hash).
    case blob(Data)
    /// A timestamp column: read as a date, so each store keeps it in its own format.
    case date(Date)
}

// @MemberwiseInit
/// Consecutive rows of one table, in its primary key's order.
public struct TransferBatch: Sendable {
    /// The table, named as both stores name it (`users`, `tweet_likes`).
    public let table: String
    /// The columns of every row, named as the SQLite store names them (`authorId`).
    public let columns: [String]
    /// The rows, each with one value per column.
    public let rows: [[TransferValue]]
}
