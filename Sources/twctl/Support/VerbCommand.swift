import ArgumentParser
import JSONRPC
import TwitterClient

/// A command that calls one method on what its arguments name and prints one line once it is done. The commands
/// that differ from their siblings only by that method and that line (`twctl follow`, `like`, `list add`…) are
/// each a `Verb`, run by one `VerbCommand`.
protocol Verb {
    /// What the command's arguments name: an account, a tweet, a member of a list.
    associatedtype Target: VerbTarget
    associatedtype Result: Decodable & Sendable
    /// The command's name and abstract.
    static var configuration: CommandConfiguration { get }
    /// The method called with the target.
    static var method: RPCMethod<Target.Params, Result> { get }
    /// The line printed once it is done to `target`, given what the method answered.
    static func done(_ target: Target, _ answer: Result) -> String
}

/// The arguments of a `Verb`'s command, and the params they make.
protocol VerbTarget: ParsableArguments {
    associatedtype Params: Codable & Sendable
    /// The method's params; a target may look something up first (a list, by its name).
    func params(on connection: RPCConnection) async throws -> Params
}

/// The command of a `Verb`.
struct VerbCommand<V: Verb>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { V.configuration }

    @OptionGroup var options: GlobalOptions

    @OptionGroup var target: V.Target

    func run() async throws {
        try await options.callAndPrint({ connection in
            try await connection.answer(V.method, try await target.params(on: connection))
        }) { answer, output in output.note(V.done(target, answer)) }
    }
}
