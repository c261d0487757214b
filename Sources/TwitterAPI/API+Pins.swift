import JSONRPC
import TwitterCore

extension API.Profiles {
    /// `profile.pin`'s and `profile.unpin`'s answer.
    public struct Pinned: Codable, Sendable, Equatable {
        /// Whether a tweet is pinned now.
        public var pinned: Bool
        /// The pinned tweet's id; nil after `profile.unpin`.
        public var pinnedTweetId: Int64?

        private init(memberwise: Never) { switch memberwise {} }  // the public one: BuildTools/MemberwiseInits

        enum CodingKeys: String, CodingKey { case pinned, pinnedTweetId }

        /// Encodes every member; `pinnedTweetId` is null when none, never left out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pinned, forKey: .pinned)
            try container.encode(pinnedTweetId, forKey: .pinnedTweetId)
        }
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
            errors: ["forbidden", "not_found"]
        ))

    /// `profile.unpin`.
    public static let unpin = RPCMethod<NoParams, Pinned>(
        MethodDescriptor(
            "profile.unpin", summary: "Unpins your pinned tweet; unpinning again changes nothing.",
            result: pinnedSchema
        ))
}
