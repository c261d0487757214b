import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore

/// `twctl notifications`.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Your unread notifications (--all: the read ones too), then marked read; --follow streams new ones.",
        discussion: """
            Each is shown with its id (#12). --dismiss ID removes that one for good, --clear removes them all; \
            either prints how many are left unread, and lists nothing.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Show the read notifications too; the unread ones are marked •.")
    var all = false

    @Flag(help: "Keep printing new notifications as they come.")
    var follow = false

    @Option(help: "How many, 1 to 200.")
    var limit = 20

    @Option(help: ArgumentHelp("Remove the notification with this id for good.", valueName: "id"))
    var dismiss: Int64?

    @Flag(help: "Remove all your notifications for good.")
    var clear = false

    func validate() throws {
        try Bounds.check(limit, upTo: 200)
        if dismiss != nil && clear { throw ValidationError("--dismiss and --clear: one or the other.") }
        if (dismiss != nil || clear) && (all || follow) {
            throw ValidationError("--dismiss and --clear list nothing: not with --all or --follow.")
        }
    }

    func run() async throws {
        let output = options.output
        try await DaemonConnection.run(options, login: .required) { connection in
            if dismiss != nil || clear {
                let left =
                    if let dismiss {
                        try await connection.answer(API.Notifications.dismiss, .init(id: dismiss))
                    } else {
                        try await connection.answer(API.Notifications.clear)
                    }
                if options.json {
                    output.json(left.json)
                } else {
                    output.note(
                        (dismiss.map { "Dismissed #\($0); " } ?? "Cleared; ") + Output.unread(left.result.unread) + ".")
                }
                return
            }
            let page = try await connection.answer(API.Notifications.list, .init(limit: limit))
            var listed = page.result.notifications
            // Reading marks everything up to the newest shown, so every unread one is shown first, however
            // many pages back it lies.
            var unreadListed = listed.count { !$0.read }
            while !all, unreadListed < page.result.unread, let oldest = listed.last?.id {
                let older = try await connection.call(API.Notifications.list, .init(maxId: oldest, limit: 200))
                guard !older.notifications.isEmpty else { break }
                listed += older.notifications
                unreadListed += older.notifications.count { !$0.read }
            }
            let shown = all ? listed : listed.filter { !$0.read }
            if options.json {
                output.json(page.json)
            } else {
                for notification in shown.reversed() { output.notification(notification) }
                if shown.isEmpty && !follow { output.note(all ? "No notifications." : "No unread notifications.") }
            }
            // Shown, so read: the marker moves to the newest one printed.
            if let newest = shown.first?.id, !shown.allSatisfy(\.read) {
                _ = try await connection.call(API.Notifications.markRead, .init(upToId: newest))
            }
            guard follow else { return }
            _ = try await connection.call(
                API.Notifications.subscribe, .init(sinceId: page.result.newestId ?? 0))
            try await LiveStream.each(
                API.Notifications.new, lagged: API.Notifications.lagged, on: connection, output: output,
                after: { new in
                    _ = try await connection.call(API.Notifications.markRead, .init(upToId: new.notification.id))
                }
            ) { new in output.notification(new.notification) }
        }
    }
}
