import ArgumentParser
import TwitterAPI
import TwitterClient

/// The account a command acts on.
struct AccountTarget: VerbTarget {
    @Argument(help: "The account.")
    var username: String

    func params(on _: RPCConnection) -> API.Users.UsernameParams {
        .init(username: username)
    }
}

enum Follow: Verb {
    static let configuration = CommandConfiguration(
        commandName: "follow", abstract: "Follow someone: their tweets join your home timeline.")
    static let method = API.Users.follow
    static func done(_ account: AccountTarget, _: API.Users.Following) -> String { "Following @\(account.username)." }
}

enum Unfollow: Verb {
    static let configuration = CommandConfiguration(commandName: "unfollow", abstract: "Stop following someone.")
    static let method = API.Users.unfollow
    static func done(_ account: AccountTarget, _: API.Users.Following) -> String {
        "No longer following @\(account.username)."
    }
}

enum Mute: Verb {
    static let configuration = CommandConfiguration(
        commandName: "mute",
        abstract: "Mute someone: their tweets, reposts and notifications disappear for you; follows stay.")
    static let method = API.Users.mute
    static func done(_ account: AccountTarget, _: API.Users.Relation) -> String { "Muted @\(account.username)." }
}

enum Unmute: Verb {
    static let configuration = CommandConfiguration(
        commandName: "unmute", abstract: "End a mute; what it hid comes back.")
    static let method = API.Users.unmute
    static func done(_ account: AccountTarget, _: API.Users.Relation) -> String {
        "No longer muting @\(account.username)."
    }
}

enum Block: Verb {
    static let configuration = CommandConfiguration(
        commandName: "block",
        abstract: "Block someone: neither of you sees the other, they can not follow or answer you, follows end.")
    static let method = API.Users.block
    static func done(_ account: AccountTarget, _: API.Users.Relation) -> String { "Blocked @\(account.username)." }
}

enum Unblock: Verb {
    static let configuration = CommandConfiguration(
        commandName: "unblock", abstract: "End a block; the follows it ended stay ended.")
    static let method = API.Users.unblock
    static func done(_ account: AccountTarget, _: API.Users.Relation) -> String {
        "No longer blocking @\(account.username)."
    }
}
