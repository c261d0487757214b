import Glibc
import NIOCore
import TwitterCore

extension Channel {
    /// Reads SO_PEERCRED; the kernel fills it in at connect time, so it cannot be forged by the client.
    public func peerCredentials() -> EventLoopFuture<PeerCredentials> {
        guard let provider = self as? SocketOptionProvider else {
            return eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let future: EventLoopFuture<KernelPeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        )
        return future.map { credentials in
            PeerCredentials(userID: credentials.uid, groupID: credentials.gid, processID: credentials.pid)
        }
    }
}

/// The layout of Linux's `struct ucred`, which Glibc's Swift overlay hides behind `_GNU_SOURCE`.
struct KernelPeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
