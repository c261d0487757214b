import NIOCore

/// Sends one line to a connection that cannot be served, then closes it.
///
/// It acts on channelActive because the accept path runs before the connection is registered, when nothing
/// can be written yet.
final class RejectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let line: [UInt8]

    init(line: [UInt8]) {
        self.line = line
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { reject(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        reject(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
    typealias OutboundOut = ByteBuffer
}
