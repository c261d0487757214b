import GRDB

extension AppDatabase {
    /// Every schema change, in order. Released migrations are never edited: a change is a new migration.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: schema bookkeeping") { db in
            try db.create(table: "daemonInfo") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
            }
        }
        return migrator
    }
}
