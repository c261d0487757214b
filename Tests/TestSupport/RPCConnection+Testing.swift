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

    /// The id of every tweet a daemon serves, logged in with `token`, paging the public timeline back to the first.
    public static func allTweetIDs(socket: String, token: String) async throws -> Set<Int64> {
        try await withConnection(socketPath: socket) { connection in
            try await connection.logIn(token: token)
            var present: Set<Int64> = []
            var maxID: Int64?
            while true {
                var params: [String: JSONValue] = ["limit": 200]
                if let maxID { params["maxId"] = .number(JSONNumber(Int(maxID))) }
                let page = try await connection.call("tweets.fetch", .object(params))
                guard case .array(let tweets)? = page["tweets"], !tweets.isEmpty else { break }
                for tweet in tweets {
                    if case .number(let id)? = tweet["id"], let value = id.int64 { present.insert(value) }
                }
                guard case .number(let oldest)? = page["oldestId"] else { break }
                maxID = oldest.int64
            }
            return present
        }
    }
}
