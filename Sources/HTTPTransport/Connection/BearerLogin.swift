import Foundation
import JSONRPC
import MastodonAPI
import Synchronization
import TwitterAPI
import TwitterServer

/// An HTTP connection's login by its `Authorization: Bearer` token, made through the layer (`auth.login` with
/// the token provider, as a socket client would) and kept while the same token comes back on the connection, so
/// keep-alive requests do not log in again. The session is listed in the live logins like any other, so a
/// revocation, a logout elsewhere, a password reset or an expiry ends it, and the next request logs in anew.
///
/// A bearer that does not log in (unknown, malformed, revoked, expired, or an OAuth app's own token) leaves the
/// caller anonymous, as Doorkeeper does: open endpoints answer, and a call that needs a login is refused 401 with
/// the token's reason (`refusal(_:)`), not the layer's "not logged in".
final class BearerLogin: Sendable {
    private enum State {
        case none
        case loggedIn(String)
        /// The token did not log in; `reason` answers the calls that need a login.
        case refused(String, MastodonError)
    }

    private let state = Mutex<State>(.none)

    /// Makes `session` the login of `bearer` (nil: nobody), through `processor`. A token that does not log in
    /// leaves `session` anonymous; only a failure of the layer itself (a rate, an outage) is thrown.
    func authenticate(
        _ bearer: String?, session: ConnectionSession, processor: RequestProcessor<RequestContext>
    ) async throws(MastodonError) {
        let current = state.withLock { $0 }
        guard let bearer else {
            if case .none = current, session.login == nil { return }
            state.withLock { $0 = .none }
            session.logOut()
            return
        }
        switch current {
        case .loggedIn(let token) where token == bearer && session.login != nil: return
        case .refused(let token, _) where token == bearer: return
        default: break
        }
        if session.login != nil { session.logOut() }
        state.withLock { $0 = .none }
        let params = API.Auth.LoginParams(provider: "token", credentials: .object(["token": .string(bearer)]))
        do {
            _ = try await processor.call(API.Auth.login, params, context: RequestContext(session: session))
            state.withLock { $0 = .loggedIn(bearer) }
        } catch {
            switch error.code {
            case -32001, -32002, RPCError.StandardCode.invalidParams:
                session.logOut()
                let reason = await Self.reason(refusing: bearer, processor: processor, session: session)
                state.withLock { $0 = .refused(bearer, reason) }
            default: throw MastodonError(error)
            }
        }
    }

    /// Why a call that needs a login is refused: an OAuth app's token (`oauth.apps.verify` knows it) is an app,
    /// not a user; any other token is invalid.
    private static func reason(
        refusing bearer: String, processor: RequestProcessor<RequestContext>, session: ConnectionSession
    ) async -> MastodonError {
        let verify = API.OAuth.VerifyParams(token: bearer)
        if (try? await processor.call(API.OAuth.verify, verify, context: RequestContext(session: session))) != nil {
            return MastodonError(status: 401, "This method requires an authenticated user")
        }
        return MastodonError(status: 401, "The access token is invalid")
    }

    /// The layer's refusal `error` as the client gets it: "not logged in" (-32001) is the bearer's own reason
    /// when its token did not log in.
    func refusal(_ error: RPCError) -> MastodonError {
        if error.code == -32001, let reason = refusedReason { return reason }
        return MastodonError(error)
    }

    /// An endpoint's 401 as the client gets it: the bearer's own reason when its token did not log in.
    func refusal(_ error: MastodonError) -> MastodonError {
        if error.status == 401, let reason = refusedReason { return reason }
        return error
    }

    private var refusedReason: MastodonError? {
        guard case .refused(_, let reason) = state.withLock({ $0 }) else { return nil }
        return reason
    }

    /// The token of `Authorization: Bearer TOKEN`; nil without one. Another scheme is a 401.
    static func token(fromHeader header: String?) throws(MastodonError) -> String? {
        guard let header else { return nil }
        // By bytes: counting and lowering characters was 3,300 instructions a request (callgrind).
        let bytes = header.utf8
        guard let start = bytes.firstIndex(where: { $0 != UInt8(ascii: " ") }),
            let valueStart = bytes.index(start, offsetBy: 7, limitedBy: bytes.endIndex), valueStart < bytes.endIndex,
            bytes[start..<valueStart].equalsIgnoringASCIICase("bearer ")
        else {
            throw MastodonError(status: 401, "The Authorization header must be Bearer TOKEN")
        }
        let value = header[valueStart...].trimmingBlanks
        guard !value.isEmpty else { throw MastodonError(status: 401, "The access token is invalid") }
        return String(value)
    }
}
