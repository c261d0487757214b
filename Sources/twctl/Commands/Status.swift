import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI

/// `twctl status`.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the daemon's version, health and uptime.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let (version, health, unread, messages) = try await DaemonConnection.run(options, login: .ifSaved) {
            connection in
            // Only a logged-in connection has notifications and messages; status works without one.
            (
                try await connection.answer(API.System.version), try await connection.answer(API.System.health),
                try? await connection.call(API.Notifications.unreadCount),
                try? await connection.call(API.Messages.unreadCount)
            )
        }
        if options.json { return options.output.json(["version": version.json, "health": health.json]) }
        let uptime = health.result.uptimeSeconds
        print("twitterd \(version.result.version) (protocol \(version.result.protocol))")
        print("status       \(health.result.status)")
        print("uptime       \(uptime / 86_400)d \(uptime % 86_400 / 3600)h \(uptime % 3600 / 60)m \(uptime % 60)s")
        print("connections  \(health.result.connections)")
        print("requests     \(health.result.requestsServed)")
        print("socket       \(options.socketPath)")
        if let unread { print("unread       \(Output.unread(unread.unread))") }
        if let messages { print("messages     \(Output.counted(messages.count, "unread message"))") }
    }
}

/// `twctl call`.
struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call any method with raw JSON params and print the raw result.",
        discussion: "Example: twctl call tweets.fetch '{\"limit\":5}'. The saved session is resumed when there is one."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The method, such as system.ping.")
    var method: String

    @Argument(help: "The params as JSON (an object or an array).")
    var params: String?

    func run() async throws {
        var parsed: JSONValue?
        if let params {
            do {
                parsed = try JSONParser().parse(params)
            } catch {
                throw ValidationError("The params are not valid JSON: \(error)")
            }
        }
        let result = try await DaemonConnection.run(options, login: .ifSaved) { connection in
            try await connection.call(method, parsed)
        }
        options.output.json(result)
    }
}

/// `twctl methods`.
struct Methods: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the daemon's methods (from rpc.discover).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.callAndPrint(API.System.discover, login: .none) { document, _ in
            guard case .array(let methods)? = document["methods"] else { return }
            for method in methods {
                let name = method["name"]?.stringValue ?? "?"
                let open =
                    switch method["x-authentication"]?.stringValue {
                    case "none": ""
                    case "admin": " (admin)"
                    default: " (login)"
                    }
                let summary = method["summary"]?.stringValue ?? ""
                print("\(name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(summary)\(open)")
            }
        }
    }
}
