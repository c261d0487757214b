import Foundation
import JSONRPC
import MastodonAPI
import Synchronization
import TwitterAPI
import TwitterServer

/// An HTTP connection's login by its `Authorization: Bearer` token, made through the layer (`auth.login` with
/// the token provider, as a socket client would) and kept while the same token comes back on the connection, so
/// keep-alive requests do not log in again. The session is listed in the live logins like any other, so a
/// revocation, a logout elsewhere, a password reset or an expiry ends it, and the next request logs in anew
/// and is refused.
final class BearerLogin: Sendable {
    private let token = Mutex<String?>(nil)

    /// Makes `session` the login of `bearer` (nil: nobody), through `processor`; a refused token is 401.
    func authenticate(
        _ bearer: String?, session: ConnectionSession, processor: RequestProcessor<RequestContext>
    ) async throws(MastodonError) {
        let current = token.withLock { $0 }
        guard let bearer else {
            if current != nil || session.login != nil {
                token.withLock { $0 = nil }
                session.logOut()
            }
            return
        }
        if current == bearer, session.login != nil { return }
        if session.login != nil { session.logOut() }
        token.withLock { $0 = nil }
        let params = API.Auth.LoginParams(provider: "token", credentials: .object(["token": .string(bearer)]))
        do {
            _ = try await processor.call(API.Auth.login, params, context: RequestContext(session: session))
        } catch {
            switch error.code {
            case -32001, -32002, RPCError.StandardCode.invalidParams:
                throw MastodonError(status: 401, "The access token is invalid")
            default: throw MastodonError(error)
            }
        }
        token.withLock { $0 = bearer }
    }

    /// The token of `Authorization: Bearer TOKEN`; nil without one. Another scheme is a 401.
    static func token(fromHeader header: String?) throws(MastodonError) -> String? {
        guard let header else { return nil }
        let trimmed = header.drop { $0 == " " }
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else {
            throw MastodonError(status: 401, "The Authorization header must be Bearer TOKEN")
        }
        let value = trimmed.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw MastodonError(status: 401, "The access token is invalid") }
        return value
    }
}
