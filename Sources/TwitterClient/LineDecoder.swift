import NIOCore

/// Splits the daemon's output into lines; a response line can be large (a page of tweets, the OpenRPC
/// document), so the cap is generous but still a cap.
public struct LineDecoder: ByteToMessageDecoder {
    /// One line, without its newline.
    public typealias InboundOut = ByteBuffer

    static let maximumLineLength = 64 << 20

    /// Creates a decoder.
    public init() {}

    /// Emits the next complete line, if there is one.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maximumLineLength { throw ClientError.invalidResponse("line too long") }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        guard let line = buffer.readSlice(length: length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    /// At EOF, emits the remaining lines and a last line without a newline.
    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0, let rest = buffer.readSlice(length: buffer.readableBytes) {
            context.fireChannelRead(wrapInboundOut(rest))
        }
        return .needMoreData
    }
}
