import TwitterCore

extension MessageServices {
    /// How many texts per transaction the start-up re-seal takes: short transactions, so that a daemon already
    /// serving the same PostgreSQL database is held up no longer than by a busy write.
    public static let rebindBatchSize = 500

    /// Seals every stored text sealed before places were bound (issue #48) again for its own row, batch by batch;
    /// the daemon runs it after the migrations and before it serves, so that `open` can refuse unbound texts. A
    /// second run finds nothing to do; one cut short is finished by the next start. Returns how many were sealed
    /// again and how many stay as they were (they do not open under this key, or changed meanwhile).
    public func rebindLegacyTexts(batchSize: Int = rebindBatchSize) async throws -> (rebound: Int, skipped: Int) {
        let sealer = self.sealer
        var after: Int64 = 0
        var total = (rebound: 0, skipped: 0)
        while true {
            let batch = try await store.rebindSealedTexts(
                marker: sealer.boundMarker, after: after, limit: batchSize
            ) { place, sealed in sealer.rebind(sealed, for: place) }
            total.rebound += batch.rebound
            total.skipped += batch.skipped
            guard let last = batch.lastID else { return total }
            after = last
        }
    }
}
