import ArgumentParser
import TwitterCore
import TwitterServer

/// `twitterd`: the daemon, and its maintenance subcommands.
@main
struct Twitterd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twitterd",
        abstract: "A small Twitter-like service: JSON-RPC 2.0 over a Unix socket.",
        discussion: """
            Serves line-delimited JSON-RPC 2.0 on a Unix domain socket. Talk to it with twctl, or with
            socat - UNIX-CONNECT:/run/twitterd/twitterd.sock
            """,
        version: TwitterdVersion.current,
        subcommands: [Serve.self, Seed.self, Backup.self, Restore.self, Check.self, Migrate.self, MigrateData.self],
        defaultSubcommand: Serve.self
    )
}
