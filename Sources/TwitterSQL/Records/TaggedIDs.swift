/// The rows of one query that reads several sets of ids in one round trip, a `UNION ALL` whose rows are the name
/// of their set (`kind`) and an id: what a reader has marked, whom its mutes and blocks hide.
enum TaggedIDs {
    /// `value` with the ids `query` reads, each inserted into the set `sets` names for its row's kind.
    static func read<Value>(
        _ connection: any SQLConnection, _ query: SQLQuery, into value: Value,
        sets: [String: WritableKeyPath<Value, Set<Int64>>]
    ) async throws -> Value {
        var value = value
        for row in try await connection.rows(query) {
            guard let set = sets[try row.column("kind", as: String.self)] else { continue }
            value[keyPath: set].insert(try row.column("id", as: Int64.self))
        }
        return value
    }
}
