import NIOCore
import TwitterCore

/// What the accept path hands to the server loop: a connection to serve, or one already turned away.
enum AcceptedConnection: Sendable {
    case serve(NIOAsyncChannel<InboundFrame, ByteBuffer>, PeerCredentials, ConnectionActivity)
    case rejected
}
