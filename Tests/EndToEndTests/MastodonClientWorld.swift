import Foundation
import JSONRPC
import TestSupport
import TwitterClient

/// A real twitterd serving the Mastodon client API on a free loopback port, accounts made over JSON-RPC, and the
/// real clients (toot, Mastodon.py) of `make clients` pointed at it.
///
/// Over a pair of daemons (`TWITTERD_TEST_STORE=postgresql-pair`) both would take the same `--http` address, so
/// the client tests run on one PostgreSQL daemon then: that pass proves the PostgreSQL store, the SQLite pass the
/// other.
struct MastodonClientWorld {
    let daemon: DaemonProcess
    let clients: MastodonClients
    /// `http://127.0.0.1:PORT`, as a user types it into a client.
    let base: String

    init() async throws {
        clients = try MastodonClients()
        let port = try freeLoopbackPort()
        let store: TestStore = TestStore.ofThisRun == .postgresqlPair ? .postgresql : .ofThisRun
        daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites,
            arguments: ["--http", "127.0.0.1:\(port)"], store: store)
        base = "http://127.0.0.1:\(port)"
    }

    /// An account made over JSON-RPC, as twctl makes one.
    struct Person {
        let username: String
        var email: String { "\(username)@example.com" }
        let password = "correct horse battery"
        /// The session token of its JSON-RPC sign-up.
        let rpcToken: String
        /// The folder of its toot configuration and cache.
        let tootHome: String
    }

    func signUp(_ username: String, messagesFromEveryone: Bool = false) async throws -> Person {
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let token = try await connection.signUp(email: "\(username)@example.com", username: username)
            if messagesFromEveryone {
                _ = try await connection.call("profile.update", ["messagesFrom": "everyone"])
            }
            return token
        }
        return Person(username: username, rpcToken: token, tootHome: try TemporaryDirectory.make(prefix: "toot"))
    }

    /// Calls a JSON-RPC method as `person`.
    @discardableResult
    func rpc(_ person: Person, _ method: String, _ params: JSONValue) async throws -> JSONValue {
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(token: person.rpcToken)
            return try await connection.call(method, params)
        }
    }

    /// The error a JSON-RPC method answers `person` with, or nil when it succeeds.
    func rpcError(_ person: Person, _ method: String, _ params: JSONValue) async throws -> RPCError? {
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(token: person.rpcToken)
            return try await connection.callError(method, params)
        }
    }

    /// Runs toot as `person`; `login_cli` takes the password from the environment, as a script keeps it out of argv.
    func toot(_ person: Person, _ arguments: [String]) throws -> ProgramResult {
        try clients.toot(arguments, home: person.tootHome, environment: ["TOOT_LOGIN_CLI_PASSWORD": person.password])
    }

    /// Logs `person` in with Mastodon.py's password grant, asking for `scopes`.
    func mastodonPyLogin(_ person: Person, scopes: String = "read write follow push") throws -> MastodonPyLogin {
        let answer = try clients.mastodonPy("login", [person.email, person.password, scopes], base: base)
        guard case .string(let token)? = answer["token"], case .string(let id)? = answer["id"],
            case .string(let clientID)? = answer["client_id"], case .string(let secret)? = answer["client_secret"]
        else { throw MastodonClients.StepFailure.unexpected("login", answer) }
        return MastodonPyLogin(token: token, accountID: id, clientID: clientID, clientSecret: secret, answer: answer)
    }

    /// Runs a Mastodon.py step with `login`'s token.
    func mastodonPy(_ login: MastodonPyLogin, _ step: String, _ arguments: [String] = []) throws -> JSONValue {
        try clients.mastodonPy(step, arguments, base: base, token: login.token)
    }
}

/// What Mastodon.py's login gave.
struct MastodonPyLogin {
    let token: String
    let accountID: String
    let clientID: String
    let clientSecret: String
    let answer: JSONValue
}

extension MastodonClients.StepFailure {
    /// A step whose output lacked what the test needs.
    static func unexpected(_ step: String, _ answer: JSONValue) -> Self {
        .init(step: step, arguments: [], result: ProgramResult(status: 0, output: "\(answer)", error: "unexpected"))
    }
}

extension JSONValue {
    /// The string values of an array, or of `key` in each of its objects.
    func strings(_ key: String? = nil) -> [String] {
        guard case .array(let items) = self else { return [] }
        return items.compactMap { item in
            guard case .string(let text)? = key.map({ item[$0] }) ?? item else { return nil }
            return text
        }
    }

    /// An id at `key`, a JSON-RPC number or a Mastodon string, as text.
    func id(_ key: String = "id") -> String? {
        switch self[key] {
        case .number(let number)?: number.text
        case .string(let text)?: text
        default: nil
        }
    }

    /// The string at `key`.
    func string(_ key: String) -> String? {
        guard case .string(let text)? = self[key] else { return nil }
        return text
    }
}
