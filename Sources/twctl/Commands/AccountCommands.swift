import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore

/// `twctl report`.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report an account or a tweet to the admins.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account (optional with --tweet).") var username: String?
    @Option(help: "The tweet's id.") var tweet: Int64?
    @Option(help: "Why.") var reason: String

    func run() async throws {
        let params = API.Reports.CreateParams(username: username, tweetId: tweet, reason: reason)
        try await options.callAndPrint(API.Reports.create, params) { report, output in
            output.note("Reported (report \(report.id)); the admins are notified.")
        }
    }
}

/// `twctl export`: the whole archive as one JSON document on standard output.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write all your data (profile, tweets, follows, likes, mutes, blocks, lists, conversations) as JSON to standard output.",
        discussion: "twctl export > archive.json — a progress bar shows on a terminal's standard error.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let archive = try await DaemonConnection.run(options, login: .required) { connection in
            let me = try await connection.call(API.Auth.whoami, NoParams())
            let overview = try await connection.call(API.Users.get, .init(username: me.user.username))
            // Tweets and follows are known up front; likes, mutes and blocks only as they come.
            let bar = ProgressBar(label: "exporting", total: overview.tweetsCount + overview.followingCount)
            var archive = AccountArchivePage()
            repeat {
                archive.append(try await connection.call(API.Account.export, .init(cursor: archive.next?.text)))
                bar.update(archive.tweets.count + archive.follows.count)
            } while archive.next != nil
            bar.finish()
            return archive
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(from: date))
        }
        FileHandle.standardOutput.write(try encoder.encode(archive) + Data("\n".utf8))
        let counts =
            "\(archive.tweets.count) tweets, \(archive.follows.count) follows, \(archive.likes.count) likes, "
            + "\(archive.mutes.count) mutes, \(archive.blocks.count) blocks, \(archive.bookmarks.count) bookmarks, "
            + "\(archive.lists.count) lists, \(archive.conversations.count) conversations"
        FileHandle.standardError.write(Data("Exported \(counts).\n".utf8))
    }
}

/// `twctl delete-account`.
struct DeleteAccount: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-account",
        abstract: "Delete your account and everything it made; the username stays reserved for 30 days.",
        discussion: "Asks for the password; an account without one (peer logins) confirms with --confirm USERNAME.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "For an account without a password: its username.") var confirm: String?
    @Flag(help: "Read the password from standard input.") var passwordStdin = false

    func run() async throws {
        let password = confirm == nil ? try Credentials.password(fromStandardInput: passwordStdin) : nil
        try await options.callAndPrint({ connection in
            let deleted = try await connection.answer(API.Account.delete, .init(password: password, confirm: confirm))
            try? SessionFile.standard.remove(for: options.socketPath)
            return deleted
        }) { deleted, output in
            let reservedUntil = Timestamp.string(from: deleted.usernameReservedUntil)
            output.note("Account deleted; the username is reserved until \(reservedUntil).")
        }
    }
}

/// `twctl reset-password`.
struct ResetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password", abstract: "Set a new password with a one-time code from an admin.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "The account's e-mail.") var email: String?
    @Option(help: "The code the admin gave you.") var code: String?
    @Flag(help: "Read the new password from standard input.") var passwordStdin = false

    func run() async throws {
        let email = try Credentials.value(email, prompt: "Email: ", flag: "--email")
        let code = try Credentials.value(code, prompt: "Code: ", flag: "--code")
        let password = try Credentials.password(fromStandardInput: passwordStdin)
        let params = API.Auth.ResetPasswordParams(email: email, code: code, newPassword: password)
        try await options.callAndPrint(API.Auth.resetPassword, params, login: .none) { _, output in
            output.note("Password set; every session of the account has ended. Log in again.")
        }
    }
}
