/// The migrations written once for both databases, oldest first: those after SQLite's v15 and PostgreSQL's 11,
/// the last written twice by hand (and released, so never edited). Append a new one here; `AppDatabase` and
/// `PostgresSchema` number it after their own.
public enum SchemaHistory {
    /// Every migration described once, oldest first.
    public static let migrations: [SchemaMigration] = []
}
