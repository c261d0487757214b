import ArgumentParser
import Foundation
import TwitterCore

/// The options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's socket.", discussion: "Default: $TWITTERD_SOCKET, else the daemon's default path."))
    var socket: String?

    @Flag(help: "Print the raw JSON result on one line, for jq.")
    var json = false

    @Flag(help: "Print only what was asked for: no confirmations.")
    var quiet = false

    /// The socket path: the flag, then $TWITTERD_SOCKET, then the daemon's default for this user, and for an
    /// ordinary user without a daemon of their own, the system daemon's socket.
    var socketPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let socket { return socket }
        if let fromEnvironment = environment["TWITTERD_SOCKET"], !fromEnvironment.isEmpty { return fromEnvironment }
        let own = DefaultPaths(environment: environment, userID: geteuid()).socketPath
        let system = DefaultPaths(environment: [:], userID: 0).socketPath
        if !FileManager.default.fileExists(atPath: own) && FileManager.default.fileExists(atPath: system) {
            return system
        }
        return own
    }
}
