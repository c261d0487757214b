import Foundation

/// The rates of the writes an account makes, each a `[rates]` key and a bucket per account. Every write method a
/// logged-in account calls names one in its declaration (`MethodDescriptor.rate`), and the daemon takes one from
/// it before the method runs; a write and its undo share one, so a storm of toggles is bounded by it.
public enum RateLimitedAction: String, Sendable, Hashable, CaseIterable {
    /// Tweets and replies (`tweets.post`).
    case posts
    /// Deleting one's tweets (`tweets.delete`).
    case deletes
    /// Follows and unfollows.
    case follows
    /// Likes and unlikes.
    case likes
    /// Reposts and taking them back.
    case reposts
    /// Reports to the admins.
    case reports
    /// Direct messages: sending, deleting one's own, leaving a conversation.
    case messages
    /// Blocks and unblocks: each block withdraws access, which every other daemon on a shared database must
    /// acknowledge.
    case blocks
    /// Mutes and unmutes.
    case mutes
    /// Bookmarks added and removed.
    case bookmarks
    /// Pinning and unpinning a tweet.
    case pins
    /// `profile.update`.
    case profileUpdates = "profile_updates"
    /// Lists made, changed and deleted.
    case lists
    /// Accounts added to and removed from lists.
    case listMembers = "list_members"
    /// Credentials: personal tokens made and revoked, uids linked and unlinked, password changes.
    case credentials
    /// Marking notifications and conversations read.
    case marks

    /// How a person says it: `profile updates`.
    public var words: String { rawValue.replacingOccurrences(of: "_", with: " ") }
}

// @MemberwiseInit
/// A rate as the configuration writes it, `count/period` such as `300/3h`: at most `count` at once, refilled
/// evenly over `period`.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    /// The bucket's size.
    public var count: Int
    /// How long an empty bucket takes to fill, in seconds.
    public var period: Double

    /// Parses `count/period` with the period in s, m, h or d (`300/3h`, `400/1d`); nil when malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0].trimmingCharacters(in: .whitespaces)), count > 0 else {
            return nil
        }
        var period = parts[1].trimmingCharacters(in: .whitespaces)
        guard let unit = period.popLast(), let amount = Int(period), amount > 0 else { return nil }
        let seconds: Double
        switch unit {
        case "s": seconds = 1
        case "m": seconds = 60
        case "h": seconds = 3600
        case "d": seconds = 86_400
        default: return nil
        }
        self.init(count: count, period: Double(amount) * seconds)
    }

    /// Seconds for one more to come back.
    public var refillInterval: Double { period / Double(count) }

    /// The configuration's form.
    public var description: String {
        for (unit, seconds) in [("d", 86_400.0), ("h", 3600), ("m", 60)]
        where period.truncatingRemainder(
            dividingBy: seconds) == 0
        {
            return "\(count)/\(Int(period / seconds))\(unit)"
        }
        return "\(count)/\(Int(period))s"
    }
}

// @MemberwiseInit
/// A token bucket: `tokens` left at `updatedAt`, refilled continuously by its limit. A fresh account's bucket is
/// full.
public struct TokenBucket: Sendable, Hashable {
    /// Tokens left at `updatedAt`.
    public var tokens: Double
    /// When `tokens` was counted.
    public var updatedAt: Date

    /// A full bucket for `limit`.
    public static func full(_ limit: RateLimit, at now: Date) -> TokenBucket {
        TokenBucket(tokens: Double(limit.count), updatedAt: now)
    }

    /// Refills to `now`, then takes one token: nil when there was one, else the whole seconds until there is.
    public mutating func take(at now: Date, limit: RateLimit) -> Int? {
        let elapsed = max(0, now.timeIntervalSince(updatedAt))
        tokens = min(Double(limit.count), tokens + elapsed / limit.refillInterval)
        updatedAt = max(updatedAt, now)
        guard tokens < 1 else {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) * limit.refillInterval).rounded(.up)))
    }
}

/// Rate buckets as stored, so the limits hold across a restart.
public protocol RateBucketStoring: Sendable {
    /// Every stored bucket.
    func allBuckets() async throws -> [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)]
    /// Stores these buckets, replacing what was stored for each.
    func save(_ buckets: [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)]) async throws
    /// Every stored signup bucket, one per local user (uid).
    func allSignupBuckets() async throws -> [(uid: UInt32, bucket: TokenBucket)]
    /// Stores these signup buckets, replacing what was stored for each uid.
    func saveSignupBuckets(_ buckets: [(uid: UInt32, bucket: TokenBucket)]) async throws
}
