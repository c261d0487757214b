import Foundation
import JSONRPC
import MastodonAPI
import TwitterServer

/// Answers one request: the Host check, a public web page (`WebPages`), or the endpoint by method and path, the
/// params, the bearer login, then the endpoint over the layer. Every API refusal is Mastodon's `{"error": ...}`;
/// nothing here decides a rule.
struct HTTPResponder: Sendable {
    let endpoints: MastodonEndpointTable
    let processor: RequestProcessor<RequestContext>
    let hostCheck: HostCheck

    func respond(to request: HTTPRequestInfo, session: ConnectionSession, bearer: BearerLogin) async -> HTTPAnswer {
        guard hostCheck.allows(request.host) else {
            return .response(
                MastodonError(
                    status: 421, "This daemon does not answer to the host \(request.host ?? "(none)"): use localhost"
                ).response)
        }
        let (path, query) = Self.split(request.uri)
        if request.method == "GET", let stream = Self.streamName(path) {
            return await respondStreaming(stream, query: query, request: request, session: session, bearer: bearer)
        }
        return .response(await respond(to: request, path: path, query: query, session: session, bearer: bearer))
    }

    /// `GET /api/v1/streaming/health` is `OK`; any other stream is server-sent events, the token from the
    /// `Authorization` header or the `access_token` param (as Mastodon takes it for streaming).
    private func respondStreaming(
        _ name: String, query: Substring?, request: HTTPRequestInfo, session: ConnectionSession,
        bearer: BearerLogin
    ) async -> HTTPAnswer {
        if name == "health" {
            return .response(
                MastodonResponse(
                    status: 200, headers: [MastodonHeader(name: "Content-Type", value: "text/plain; charset=utf-8")],
                    body: Array("OK".utf8)))
        }
        do {
            let params = try MastodonParams.decode(query: query, body: [], contentType: nil)
            let token = try BearerLogin.token(fromHeader: request.authorization) ?? params.string("access_token")
            try await bearer.authenticate(token, session: session, processor: processor)
            return try await startStream(
                named: name, params: params, origin: "http://\(request.host ?? "localhost")",
                caller: LayerCaller(processor: processor, context: RequestContext(session: session)))
        } catch let error as MastodonError {
            return .response(bearer.refusal(error).response)
        } catch let error as RPCError {
            return .response(bearer.refusal(error).response)
        } catch {
            return .response(MastodonError(status: 500, "Internal error").response)
        }
    }

    private func respond(
        to request: HTTPRequestInfo, path: Substring, query: Substring?, session: ConnectionSession,
        bearer: BearerLogin
    ) async -> MastodonResponse {
        if WebPages.serves(method: request.method, path: path) {
            // The pages read as nobody (the layer's web.* methods); no bearer login is made for them.
            return await WebPages.respond(
                path: path, query: query, origin: "http://\(request.host ?? "localhost")",
                caller: LayerCaller(processor: processor, context: RequestContext(session: session)))
        }
        let endpoint: MastodonEndpoint
        let captures: [String: String]
        switch endpoints.match(method: request.method, path: path) {
        case .found(let found, let parameters):
            (endpoint, captures) = (found, parameters)
        case .notFound:
            return MastodonError.notFound("No endpoint at \(path)").response
        case .wrongMethod(let allowed):
            var refusal = MastodonError(status: 405, "\(request.method) is not allowed on \(path)").response
            refusal.headers.append(MastodonHeader(name: "Allow", value: allowed.joined(separator: ", ")))
            return refusal
        }
        do {
            let params = try MastodonParams.decode(query: query, body: request.body, contentType: request.contentType)
            let token = try BearerLogin.token(fromHeader: request.authorization)
            try await bearer.authenticate(token, session: session, processor: processor)
            let mastodonRequest = MastodonRequest(
                method: request.method, pathParameters: captures, params: params,
                origin: "http://\(request.host ?? "localhost")", idempotencyKey: request.idempotencyKey,
                bearerToken: token)
            return try await endpoint.handle(
                mastodonRequest, LayerCaller(processor: processor, context: RequestContext(session: session)))
        } catch let error as MastodonError {
            return bearer.refusal(error).response
        } catch let error as RPCError {
            return bearer.refusal(error).response
        } catch {
            return MastodonError(status: 500, "Internal error").response
        }
    }

    /// The path and the query (without `?`) of a request target. By its bytes, as every test of the target here:
    /// a search by `Character` made one string per character, 8,500 instructions a request (callgrind).
    static func split(_ uri: String) -> (Substring, Substring?) {
        guard let mark = uri.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (uri[...], nil) }
        return (uri[..<mark], uri[uri.utf8.index(after: mark)...])
    }
}
