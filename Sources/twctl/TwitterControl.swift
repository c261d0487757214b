import ArgumentParser

/// `twctl`: the command-line client of twitterd.
@main
struct TwitterControl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twctl",
        abstract: "Talk to twitterd: sign up, log in, post and read tweets, edit your profile."
    )
}
