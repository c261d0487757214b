import JSONRPC
import TwitterClient

extension RPCConnection {
    /// Calls `method` and returns the error object the daemon answered with, or nil when it succeeded.
    public func callError(_ method: String, _ params: JSONValue? = nil) async throws -> RPCError? {
        do {
            _ = try await call(method, params)
            return nil
        } catch ClientError.remote(let error) {
            return error
        }
    }

    /// Signs up and returns the session token; the connection is then logged in.
    @discardableResult
    public func signUp(email: String, password: String = "correct horse battery", username: String? = nil)
        async throws -> String
    {
        var params: [String: JSONValue] = ["email": .string(email), "password": .string(password)]
        if let username { params["username"] = .string(username) }
        let result = try await call("auth.signup", .object(params))
        guard case .string(let token)? = result["session"]?["token"] else {
            throw ClientError.invalidResponse("no token")
        }
        return token
    }

    /// Logs in with a password.
    @discardableResult
    public func logIn(email: String, password: String = "correct horse battery") async throws -> JSONValue {
        try await call(
            "auth.login",
            ["provider": "password", "credentials": ["email": .string(email), "password": .string(password)]]
        )
    }

    /// Logs in with a token.
    @discardableResult
    public func logIn(token: String) async throws -> JSONValue {
        try await call("auth.login", ["provider": "token", "credentials": ["token": .string(token)]])
    }
}
