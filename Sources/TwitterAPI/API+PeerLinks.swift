import Foundation
import JSONRPC
import TwitterCore

extension API.Auth {
    // @MemberwiseInit
    /// `auth.linkPeer`'s params.
    public struct LinkPeerParams: Codable, Sendable {
        /// The account's password: a link lets the uid in with no secret, so it takes what a login takes.
        public var password: String?
    }

    // @MemberwiseInit
    /// `auth.unlinkPeer`'s params.
    public struct UnlinkPeerParams: Codable, Sendable {
        /// The uid whose link to this account goes; the calling process's uid when absent.
        public var uid: UInt32?
    }

    // @MemberwiseInit
    /// One uid linked to the account.
    public struct PeerLinkSummary: Codable, Sendable, Equatable {
        /// The Unix uid.
        public var uid: UInt32
        /// When it was linked; null for links older than this record.
        @NullWhenAbsent public var linkedAt: Date? = nil
        /// The identity of the uid's machine (`[database] host_id`, or its machine id): a uid is a person on its own
        /// host only, and several hosts may share the database. Absent from a daemon before hosts were kept.
        public var host: String? = nil
    }

    // @MemberwiseInit
    /// `auth.peerLinks`' answer.
    public struct PeerLinks: Codable, Sendable {
        /// Every uid that logs in as this account, by uid.
        public var links: [PeerLinkSummary]
    }

    /// `auth.linkPeer`.
    public static let linkPeer = RPCMethod<LinkPeerParams, PeerLinked>(
        MethodDescriptor(
            "auth.linkPeer",
            summary:
                "Links the calling process's uid (SO_PEERCRED) to this account, for provider \"peer\"; needs the password.",
            params: [
                Property(
                    "password",
                    .string("The account's password; required for every account that has one. Throttled as logins are.")
                )
            ],
            result: .object([
                Property("uid", .integer("The linked uid."), required: true),
                Property("username", .string(), required: true),
            ]),
            errors: ["invalid_credentials", "rate_limited", "forbidden"], rate: .credentials
        ))

    /// `auth.unlinkPeer`.
    public static let unlinkPeer = RPCMethod<UnlinkPeerParams, PeerUnlinked>(
        MethodDescriptor(
            "auth.unlinkPeer",
            summary: "Removes the link of a uid (the caller's own when none is named) to this account.",
            params: [Property("uid", .integer("A uid from auth.peerLinks; the caller's own when absent.", minimum: 0))],
            result: .object([
                Property("uid", .integer(), required: true),
                Property("unlinked", .boolean("False when no link existed."), required: true),
            ]), rate: .credentials
        ))

    /// `auth.peerLinks`.
    public static let peerLinks = RPCMethod<NoParams, PeerLinks>(
        MethodDescriptor(
            "auth.peerLinks",
            summary: "Every local uid that logs in as this account with provider \"peer\", and since when.",
            result: .object([
                Property(
                    "links",
                    .array(
                        of: .object(
                            [
                                Property("uid", .integer(), required: true),
                                Property("linkedAt", Schema.timestamp().orNull(), required: true),
                                Property("host", .string("The identity of the uid's machine; the uid is its.")),
                            ], title: "PeerLink")), required: true)
            ])
        ))
}
