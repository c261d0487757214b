import ArgumentParser

/// `twbench`: the load generator behind docs/BENCHMARKS.md.
@main
struct Twbench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twbench",
        abstract: "Load twitterd (or any line server) and report throughput, latency percentiles and errors.",
        subcommands: [Load.self, Ready.self, Idle.self],
        defaultSubcommand: Load.self
    )
}
