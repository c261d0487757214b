import TwitterCore
import TwitterRuntime

/// The group commit of posts and reposts, a batch's writes being the hot path of posting: posts wait in the
/// committer's queue while a batch commits, and the first to find no commit running starts the committer's loop,
/// its database's own, which commits every post queued meanwhile in one transaction, then the next batch, until
/// the queue is empty. Every poster, that one included, then waits for its own post's outcome.
public protocol PostCommitting: Sendable {
    /// Where posts wait for the next batch.
    var queue: PostQueue { get }

    /// Starts the loop that commits the queue's batches in order, each in one transaction, and sets each post's
    /// outcome once its batch is committed and durable, until `nextBatch` finds the queue empty.
    func startCommitting()
}

extension PostCommitting {
    /// Queues `post` for the next batch, starting the loop if none runs; the slot gets its outcome.
    func enqueue(_ post: PendingPost) -> OutcomeSlot<Tweet> {
        let (outcome, leads) = queue.enqueue(post)
        if leads { startCommitting() }
        return outcome
    }
}

/// Where posts wait for their group commit (`PostCommitting`).
public typealias PostQueue = GroupCommitQueue<PendingPost, Tweet>

extension PostQueue {
    /// The most posts in one transaction; larger bursts commit in several.
    public static var maximumPosts: Int { 512 }

    /// An empty queue, at most `maximumPosts` in a batch.
    public convenience init() {
        self.init(maximumBatch: Self.maximumPosts)
    }
}
