import TwitterCore

/// Logs the connection in as the account linked to the peer's uid, as the kernel reports it (SO_PEERCRED).
///
/// The client sends nothing: the proof is that the kernel says who is connecting.
public struct PeerLoginProvider: LoginProviding {
    /// No members: `{}`.
    public struct Credentials: Decodable, Sendable {}

    private let links: any PeerLinkStoring

    /// Creates the provider over the link store.
    public init(links: any PeerLinkStoring) {
        self.links = links
    }

    /// `peer`.
    public var name: String { "peer" }

    /// None.
    public var credentialFields: [CredentialField] { [] }

    /// Finds the account linked to the connecting uid.
    public func logIn(with credentials: Credentials, context: LoginContext) async throws -> Authentication {
        guard let user = try await links.linkedUser(uid: context.peer.userID) else {
            throw TwitterError(
                .invalidCredentials, "No account is linked to uid \(context.peer.userID); link one with auth.linkPeer"
            )
        }
        return Authentication(user: user)
    }
}
