import ArgumentParser
import TwitterAPI
import TwitterTUI

/// `twctl user`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Someone's profile, counts, and how they relate to you.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Whose.")
    var username: String

    func run() async throws {
        try await options.callAndPrint(API.Users.get, .init(username: username)) { user, _ in
            print(
                Output.person(user.username, firstName: user.firstName, lastName: user.lastName, style: Terminal.bold))
            if !user.bio.isEmpty { print(user.bio) }
            print(
                [
                    HumanFormat.counted(user.tweetsCount, "tweet"),
                    HumanFormat.counted(user.followersCount, "follower"), "\(user.followingCount) following",
                ].joined(separator: " · "))
            let relation = [
                user.followedByMe ? "you follow them" : nil, user.followsMe ? "they follow you" : nil,
                user.mutedByMe ? "you mute them" : nil, user.blockedByMe ? "you block them" : nil,
            ].compactMap { $0 }
            if !relation.isEmpty { print(relation.joined(separator: " · ")) }
            print(Terminal.dim("joined \(HumanFormat.month(of: user.createdAt))"))
        }
    }
}
