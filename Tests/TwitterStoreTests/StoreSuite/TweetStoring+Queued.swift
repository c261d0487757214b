import TwitterCore

extension TweetStoring {
    /// Queues `draft` now, as a connection's pipelined post is (a post takes its place in the commit order before
    /// it first suspends), and gives the task that waits for its commit.
    func queued(_ draft: PostDraft) -> Task<Tweet, any Error> {
        Task.immediate { try await post(draft) }
    }
}
