import JSONRPC
import TwitterClient

/// The shape of most commands: connect, make one typed call, and print its answer, as the raw JSON under
/// --json, else for people.
extension GlobalOptions {
    /// Where the command prints.
    var output: Output { Output(options: self) }

    /// Runs `call` on a connection (resuming the saved session, unless `login` says otherwise) and prints its
    /// answer: the raw JSON under --json, else through `human`.
    func callAndPrint<Result: Sendable>(
        login: DaemonConnection.Login = .required, _ call: (RPCConnection) async throws -> TypedAnswer<Result>,
        human: (Result, Output) throws -> Void
    ) async throws {
        let answer = try await DaemonConnection.run(self, login: login, call)
        if json { return output.json(answer.json) }
        try human(answer.result, output)
    }

    /// Calls `method` with `params` and prints its answer, as `callAndPrint(login:_:human:)` does.
    func callAndPrint<Params, Result>(
        _ method: RPCMethod<Params, Result>, _ params: Params, login: DaemonConnection.Login = .required,
        human: (Result, Output) throws -> Void
    ) async throws {
        try await callAndPrint(
            login: login, { connection in try await connection.answer(method, params) }, human: human)
    }

    /// Calls `method`, which takes no params, and prints its answer.
    func callAndPrint<Result>(
        _ method: RPCMethod<NoParams, Result>, login: DaemonConnection.Login = .required,
        human: (Result, Output) throws -> Void
    ) async throws {
        try await callAndPrint(method, NoParams(), login: login, human: human)
    }
}
