import ArgumentParser
import TwitterCore

/// `twctl`: the command-line client of twitterd.
@main
struct TwitterControl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "twctl",
        abstract:
            "Talk to twitterd: sign up, log in, post, reply, follow, like, repost, read timelines, threads and notifications, search.",
        // One line per paragraph: ArgumentParser wraps the text to the terminal itself, and a hard break inside a
        // paragraph would meet its wrapping halfway through a line.
        discussion: """
            twctl stays logged in between runs: the session token from `twctl login` is kept in \
            $XDG_CONFIG_HOME/twctl/session.json (mode 0600), one per socket. `twctl tui` opens the full-screen \
            client.

            Exit status follows sysexits: 64 usage, 65 bad data, 69 daemon unavailable, 70 internal error, \
            77 not logged in or not allowed.
            """,
        version: TwitterdVersion.current,
        subcommands: [
            Signup.self, Login.self, Logout.self, WhoAmI.self, TimelineCommand.self, Feed.self, Post.self, Reply.self,
            VerbCommand<Delete>.self, ThreadCommand.self, VerbCommand<Like>.self, VerbCommand<Unlike>.self,
            VerbCommand<Repost>.self, VerbCommand<Unrepost>.self, Quote.self, Quotes.self, Bookmark.self,
            Bookmarks.self, Pin.self, ListCommand.self, ListsCommand.self, VerbCommand<Follow>.self,
            VerbCommand<Unfollow>.self, PeopleListCommand<Followers>.self, PeopleListCommand<Following>.self,
            UserCommand.self, NotificationsCommand.self, Search.self, Tag.self, Trending.self,
            VerbCommand<Mute>.self, VerbCommand<Unmute>.self, VerbCommand<Block>.self,
            VerbCommand<Unblock>.self, OwnPeopleListCommand<Muted>.self, OwnPeopleListCommand<Blocked>.self,
            ProfileCommand.self, DirectMessage.self, DirectMessages.self, TokenCommand.self, OAuthCommand.self,
            PeerCommand.self,
            ReportCommand.self, Export.self, DeleteAccount.self, ResetPassword.self, AdminCommand.self, Status.self,
            Call.self, Methods.self, TUICommand.self,
        ]
    )

    /// Accepted before the subcommand too (`twctl --json feed`); ArgumentParser hands them to the subcommand's
    /// own option group.
    @OptionGroup var options: GlobalOptions
}
