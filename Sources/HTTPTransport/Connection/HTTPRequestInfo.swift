// @MemberwiseInit
/// One complete request as the connection read it, the part the responder needs: no NIO types, so it crosses
/// into the request's task.
struct HTTPRequestInfo: Sendable {
    var method: String
    /// The request target: path and query.
    var uri: String
    var host: String?
    var authorization: String?
    var contentType: String?
    var idempotencyKey: String?
    var body: [UInt8]
}
