import JSONRPC
import TwitterCore

/// The answer to tweets.thread: `{"ancestors","descendants","truncated"?,"tweet"}`, every tweet with the
/// reader's marks, a deleted one as `{"deleted":true,"id","inReplyToId"}`.
struct ThreadAnswer: JSONWritable {
    let conversation: Conversation
    let marks: ReaderMarks

    init(_ conversation: Conversation, marks: ReaderMarks) {
        self.conversation = conversation
        self.marks = marks
    }

    func writeJSON(into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { answer, bytes in
            answer.key("ancestors", into: &bytes)
            write(conversation.ancestors, into: &bytes)
            answer.key("descendants", into: &bytes)
            write(conversation.descendants, into: &bytes)
            if conversation.truncated { answer.boolean("truncated", true, into: &bytes) }
            answer.value("tweet", marks.applied(to: conversation.tweet), into: &bytes)
        }
    }

    private func write(_ entries: [ThreadEntry], into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            switch entry {
            case .tweet(let tweet):
                marks.applied(to: tweet).writeJSON(into: &bytes)
            case .deleted(let id, let parent):
                JSONObjectWriter.write(into: &bytes) { deleted, bytes in
                    deleted.boolean("deleted", true, into: &bytes)
                    deleted.integer("id", id, into: &bytes)
                    deleted.integer("inReplyToId", parent, into: &bytes)
                }
            }
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
