/// A migration described once: its name and its changes, in order. Each database numbers the migrations of
/// `SchemaHistory` after its own released ones and applies the statements its dialect renders, in the
/// transaction that records it.
public struct SchemaMigration: Sendable {
    /// What it changes, as the migration's name in both databases' records.
    public let name: String
    /// The changes, in order.
    public let changes: [SchemaChange]

    /// A migration called `name` making `changes`.
    public init(_ name: String, _ changes: [SchemaChange]) {
        self.name = name
        self.changes = changes
    }

    /// Every statement of the migration in `dialect`'s spelling, in order.
    public func statements(for dialect: any SQLDialect) -> [String] {
        changes.flatMap { $0.statements(for: dialect) }
    }
}
