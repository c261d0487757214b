import GRDB

extension Database {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction and commits it, or rolls it back and rethrows, as GRDB's
    /// `inTransaction` does, but with the `BEGIN` and the `COMMIT` kept compiled in the connection's statement
    /// cache: GRDB compiles both again for every transaction, about 8,400 instructions each, which a lone post
    /// (a batch of its own) paid in full (callgrind, bench/instructions.sh's post_lone; bench/analysis.md, "A
    /// lone post's transaction, kept compiled"). Unlike `PRAGMA synchronous`, neither does its work when it is
    /// compiled, so a kept one runs as a new one would (`KeptTransactionTests`).
    func inKeptTransaction(_ body: () throws -> Void) throws {
        try cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            try body()
            try cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
            // A failed statement may have rolled the transaction back already; `rollback` ends it only if not.
            try? rollback()
            throw error
        }
    }
}
