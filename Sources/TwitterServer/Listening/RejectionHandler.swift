import NIOCore

/// Sends one line (JSON-RPC) or one canned response (HTTP) to a connection that cannot be served, then closes it.
///
/// It acts on channelActive because the accept path runs before the connection is registered, when nothing
/// can be written yet.
public final class RejectionHandler: ChannelInboundHandler {
    /// Whatever arrives.
    public typealias InboundIn = ByteBuffer

    private let line: [UInt8]

    /// A handler that sends `line` and closes.
    public init(line: [UInt8]) {
        self.line = line
    }

    /// Rejects at once when the connection is already active.
    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { reject(context: context) }
    }

    /// Rejects once the connection is active.
    public func channelActive(context: ChannelHandlerContext) {
        reject(context: context)
        context.fireChannelActive()
    }

    /// Drops what arrives.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Whatever the client sent is not going to be served.
    }

    private func reject(context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: line)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

extension RejectionHandler {
    /// Bytes.
    public typealias OutboundOut = ByteBuffer
}
