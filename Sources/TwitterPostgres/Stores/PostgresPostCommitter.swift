import Foundation
import TwitterCore
import TwitterSQL

/// Group commit for posts (`PostCommitting`): the loop runs in a task of its own, each batch one ordered write
/// (one COMMIT, one WAL flush), its posts staged and written together (`BatchWriter`), in bulk (`PostgresSQLConnection.insert`).
struct PostgresPostCommitter: PostCommitting {
    let database: PostgresStore
    let observer: any CommitObserving
    let queue = PostQueue()

    /// Starts the loop in a task: the poster that leads goes on to wait for its own outcome like the others.
    func startCommitting() {
        Task { await commitUntilEmpty() }
    }

    private func commitUntilEmpty() async {
        while let batch = queue.nextBatch() {
            let posts = batch.map(\.item)
            do {
                let outcomes = try await database.orderedWrite(reportingTo: observer) { connection in
                    try await BatchWriter.write(
                        posts, on: PostgresSQLConnection(connection: connection), now: PostgresDialect().stored(Date()))
                }
                for (waiting, outcome) in zip(batch, outcomes) { waiting.outcome.fulfil(outcome.mapError { $0 }) }
            } catch {
                for waiting in batch { waiting.outcome.fulfil(.failure(error)) }
            }
        }
    }
}
