import TwitterCore

/// Where a kept page's bytes hold each of a reader's marks (`bookmarkedByMe`, `likedByMe`, `repostedByMe`, a
/// repost's original's too), all `false` there: the one home of the marked-page fast path. A reader with marks
/// on a kept page gets the kept bytes with `true` written over the `false` of each of their marks, instead of
/// the page's tweets marked and written again from their parts.
///
/// Writing a marked page again had been half of a marked reader's timeline.home (bench/analysis.md, "Measured
/// in the code's history"). The bytes are those the slow path writes: `PageMarksTests` holds the two against
/// each other for readers with and without marks.
struct PageMarks: Sendable {
    /// Which of a reader's marks a slot holds.
    enum Mark: Sendable {
        case bookmarked, liked, reposted
    }

    /// One mark's `false` in the page's bytes: at `offset`, of tweet `tweetID`.
    struct Slot: Sendable {
        let offset: Int
        let tweetID: Int64
        let mark: Mark
    }

    /// The slots, in the order of their offsets.
    private(set) var slots: [Slot] = []
    /// False once a kept tweet carried a mark of its own: its bytes are then no reader-free base to write over.
    private(set) var isUsable = true

    /// Notes the mark `mark` of tweet `tweetID`, `value` in the kept tweet, about to be written at `offset`.
    mutating func note(_ mark: Mark, of tweetID: Int64, value: Bool, at offset: Int) {
        if value { isUsable = false }
        slots.append(Slot(offset: offset, tweetID: tweetID, mark: mark))
    }

    /// `unmarked`, the page's bytes these slots were noted in, as `marks`'s reader sees it; nil when the slots
    /// cannot say (a kept tweet carried a mark).
    func applied(_ marks: ReaderMarks, to unmarked: [UInt8]) -> [UInt8]? {
        guard isUsable else { return nil }
        var bytes: [UInt8] = []
        // `true` is a byte shorter than `false`: the answer is never longer than the kept bytes.
        bytes.reserveCapacity(unmarked.count)
        var copied = 0
        for slot in slots where marks.has(slot.mark, on: slot.tweetID) {
            bytes.append(contentsOf: unmarked[copied..<slot.offset])
            bytes.append(contentsOf: Self.trueBytes)
            copied = slot.offset + Self.falseCount
        }
        bytes.append(contentsOf: unmarked[copied...])
        return bytes
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseCount = "false".utf8.count
}

extension ReaderMarks {
    /// Whether this reader has `mark` on the tweet `id`.
    func has(_ mark: PageMarks.Mark, on id: Int64) -> Bool {
        switch mark {
        case .bookmarked: bookmarked.contains(id)
        case .liked: liked.contains(id)
        case .reposted: reposted.contains(id)
        }
    }
}
