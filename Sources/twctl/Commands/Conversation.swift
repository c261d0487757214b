import ArgumentParser
import TwitterAPI

/// `twctl thread`.
struct ThreadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thread", abstract: "A tweet with its whole conversation, as an indented tree.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of any tweet in the conversation.")
    var id: Int

    func run() async throws {
        try await options.callAndPrint(API.Tweets.thread, .init(id: Int64(id)), human: Self.showTree)
    }

    /// The ancestors, each a level deeper, the tweet, then each reply one level below its parent.
    private static func showTree(_ thread: API.Tweets.Thread, output: Output) {
        var depth: [Int64: Int] = [:]
        for (level, ancestor) in thread.ancestors.enumerated() {
            show(ancestor, indent: level, output: output)
            depth[ancestor.id] = level
        }
        let level = thread.ancestors.count
        depth[thread.tweet.id] = level
        output.tweet(thread.tweet, indent: level)
        for reply in thread.descendants {
            let indent = reply.inReplyToId.flatMap { depth[$0] }.map { $0 + 1 } ?? level + 1
            depth[reply.id] = indent
            show(reply, indent: indent, output: output)
        }
        if thread.truncated == true { output.note("… more replies than shown") }
    }

    private static func show(_ item: API.Tweets.ThreadItem, indent: Int, output: Output) {
        switch item {
        case .tweet(let tweet): output.tweet(tweet, indent: indent)
        case .deleted(let id, _): print(String(repeating: "  ", count: indent) + Terminal.dim("#\(id) was deleted"))
        }
    }
}
