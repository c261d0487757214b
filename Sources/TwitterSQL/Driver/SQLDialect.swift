import Foundation

/// How one database spells what the stores write once: its placeholders, casts, array membership, row locks and
/// the few functions named otherwise, and what no spelling covers (how a date is kept, a lock on a key, keeping
/// the planner off an index). Each driver module implements it once (`SQLiteDialect`, `PostgresDialect`); a
/// `SQLQuery` is serialised for it, a named text once per database, so no text is rewritten at run time.
public protocol SQLDialect: Sendable {
    /// The placeholder of value number `index` (1 first).
    func placeholder(_ index: Int) -> String

    /// What follows a placeholder to give its value `type` ("::bigint"), or nothing where any column takes any
    /// value.
    func cast(_ type: SQLType) -> String

    /// A test that the left side is one of the array bound at `placeholder`, as written after it (`x <test>`).
    func membership(in placeholder: String) -> String

    /// This database's name of `function`.
    func name(of function: SQLFunction) -> String

    /// `lock` as a clause with its leading space, or nothing where the database needs none.
    func clause(_ lock: SQLRowLock) -> String

    /// `column` as an expression the planner cannot serve from an index on it.
    func unindexed(_ column: String) -> String

    /// `date` as this database keeps it, so that what a write returns is what a later read finds.
    func stored(_ date: Date) -> Date

    /// A statement that holds a lock on `key` (within `space`) until the transaction ends, for a change whose
    /// row may not exist yet; nil where one writer already excludes every other.
    func keyLock(_ space: Int32, _ key: String) -> SQLQuery?

    /// Whether commits are logged in `commit_events` (PostgreSQL's delivery across daemons), so that a deleted
    /// message's text must leave that log too.
    var keepsCommitLog: Bool { get }

    /// The column type this database declares for `type` (`SchemaTable`'s portable types).
    func columnType(_ type: SQLType) -> String

    /// A table's integer primary key whose values the database assigns, in ascending order.
    var generatedKey: String { get }
}
