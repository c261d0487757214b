import JSONRPC
import TwitterCore

extension API.Profiles {
    // @MemberwiseInit
    /// `profile.pin`'s and `profile.unpin`'s answer.
    public struct Pinned: Codable, Sendable, Equatable {
        /// Whether a tweet is pinned now.
        public var pinned: Bool
        /// The pinned tweet's id; nil after `profile.unpin`.
        @NullWhenAbsent public var pinnedTweetId: Int64? = nil
    }

    static let pinnedSchema = Schema.object(
        [
            Property("pinned", .boolean(), required: true),
            Property("pinnedTweetId", Schema.integer().orNull(), required: true),
        ], title: "Pinned")

    /// `profile.pin`.
    public static let pin = RPCMethod<API.Tweets.IDParams, Pinned>(
        MethodDescriptor(
            "profile.pin",
            summary: "Pins one of your own tweets (not a repost) to your profile, in place of any pinned before.",
            params: [Property("id", .integer(), required: true)], result: pinnedSchema, positional: true,
            errors: ["forbidden", "not_found"], rate: .pins
        ))

    /// `profile.unpin`.
    public static let unpin = RPCMethod<NoParams, Pinned>(
        MethodDescriptor(
            "profile.unpin", summary: "Unpins your pinned tweet; unpinning again changes nothing.",
            result: pinnedSchema, rate: .pins
        ))
}
