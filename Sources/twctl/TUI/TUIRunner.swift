import Dispatch
import Foundation
import Glibc
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore
import TwitterTUI

/// Runs `twctl tui`: the one loop where keys, signals and the daemon's answers and notifications change the
/// model, after each of which the screen is drawn again from it.
///
/// Everything happens on the main actor, woken by what arrives: the keyboard and the signal pipe through
/// dispatch read sources (epoll underneath), the socket through the connection's notification stream. There
/// is no timer while connected, so an idle screen uses no CPU; only while the daemon is gone does a back-off
/// timer try to reconnect.
@MainActor
final class TUIRunner {
    /// How the screen ended.
    enum Outcome: Sendable {
        /// `q` on a tab, Ctrl-C, SIGINT, SIGTERM or SIGHUP.
        case quit
        /// The session is no more (expired, revoked, logged out elsewhere).
        case sessionEnded(String)
        /// The terminal could not be set up.
        case failed(String)
    }

    /// The session's end, thrown out of the connection to stop reconnecting.
    private struct SessionEnded: Error {
        let message: String
    }

    private let socket: String
    private let noColor: Bool
    private var state: AppState
    private var screen: CursesScreen?
    private var connection: RPCConnection?
    /// The timeline each `timeline.subscribe` answered for, by subscription id.
    private var timelines: [Int: Tab] = [:]
    private var reconnectDelay = Duration.milliseconds(100)
    private var finished: CheckedContinuation<Outcome, Never>?
    private var outcome: Outcome?

    init(socket: String, noColor: Bool) {
        self.socket = socket
        self.noColor = noColor
        state = AppState(socket: socket)
    }

    /// Takes the terminal, runs until quit, gives the terminal back.
    func run() async -> Outcome {
        guard TerminalSignals.install() else { return .failed("cannot watch the terminal's signals") }
        var shellModes = termios()
        tcgetattr(STDIN_FILENO, &shellModes)
        let screen = CursesScreen(noColor: noColor)
        self.screen = screen
        TerminalSignals.armCrashRescue(savedModes: shellModes)
        let keys = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        keys.setEventHandler { MainActor.assumeIsolated { self.keysArrived() } }
        let signals = DispatchSource.makeReadSource(fileDescriptor: TerminalSignals.readDescriptor, queue: .main)
        signals.setEventHandler { MainActor.assumeIsolated { self.signalsArrived() } }
        keys.resume()
        signals.resume()
        redraw()
        let link = Task { await self.stayConnected() }
        let outcome = await withCheckedContinuation { continuation in
            if let outcome = self.outcome {
                continuation.resume(returning: outcome)
            } else {
                finished = continuation
            }
        }
        link.cancel()
        keys.cancel()
        signals.cancel()
        screen.end()
        return outcome
    }

    // MARK: - Input

    private func keysArrived() {
        guard let screen else { return }
        for key in screen.readKeys() {
            perform(state.handle(key))
            if state.quitting { return finish(.quit) }
        }
        redraw()
    }

    private func signalsArrived() {
        for signal in TerminalSignals.drain() {
            switch signal {
            case SIGWINCH, SIGCONT: screen?.resize()
            default: return finish(.quit)
            }
        }
        redraw()
    }

    private func apply(_ event: Event) {
        perform(state.apply(event))
        redraw()
    }

    private func redraw() {
        guard let screen, outcome == nil else { return }
        state.now = Date()
        screen.draw(Renderer.render(state, width: screen.width, height: screen.height))
    }

    private func finish(_ result: Outcome) {
        guard outcome == nil else { return }
        outcome = result
        finished?.resume(returning: result)
        finished = nil
    }

    // MARK: - The connection

    /// Connects, resumes the session, subscribes, and reads notifications; when the daemon goes away, shows it
    /// and tries again, backing off to 2 s, until the screen ends.
    private func stayConnected() async {
        while !Task.isCancelled && outcome == nil {
            var reason = "the daemon closed the connection"
            do {
                try await RPCConnection.withConnection(socketPath: socket) { @Sendable connection in
                    try await self.serve(connection)
                }
            } catch let ended as SessionEnded {
                return finish(.sessionEnded(ended.message))
            } catch ClientError.remote(let error) where ErrorCodes.kind(of: error.code) == .invalidCredentials {
                return finish(.sessionEnded("Your session has expired"))
            } catch {
                reason = Self.describe(error)
            }
            connection = nil
            guard !Task.isCancelled && outcome == nil else { return }
            apply(.disconnected(reason))
            try? await Task.sleep(for: reconnectDelay)
            reconnectDelay = min(reconnectDelay * 2, .seconds(2))
        }
    }

    /// One connection's life: log in with the saved session, learn what the daemon offers, subscribe from the
    /// newest items already shown (so what came while away is sent first), then follow the notifications.
    private func serve(_ connection: RPCConnection) async throws {
        guard let saved = SessionFile.standard.entry(for: socket) else {
            throw SessionEnded(message: "You are not logged in")
        }
        let login = try await connection.call(
            API.Auth.login, .init(provider: "token", credentials: ["token": .string(saved.token)]))
        let discovery = try await connection.call(API.System.discover)
        var methods: Set<String> = []
        if case .array(let listed)? = discovery["methods"] {
            for method in listed { if case .string(let name)? = method["name"] { methods.insert(name) } }
        }
        timelines = [:]
        for (name, tab) in [("home", Tab.home), ("public", Tab.everyone)] {
            let since = state.lists[tab]?.items.map(\.id).max()
            let answer = try await connection.call(API.Timelines.subscribe, .init(timeline: name, sinceId: since))
            timelines[answer.subscription] = tab
        }
        let newestNotification = state.lists[.notifications]?.items.map(\.id).max()
        _ = try await connection.call(API.Notifications.subscribe, .init(sinceId: newestNotification ?? 0))
        if methods.contains(API.Messages.subscribe.name) { _ = try await connection.call(API.Messages.subscribe) }
        self.connection = connection
        reconnectDelay = .milliseconds(100)
        apply(.connected(account: login.user.username, capabilities: Capabilities(methods: methods)))
        for await notification in connection.notifications {
            try received(notification, on: connection)
        }
    }

    /// A notification from the daemon, as an event for the model.
    private func received(_ notification: TwitterClient.Notification, on connection: RPCConnection) throws {
        if let new = try connection.decode(notification, as: API.Tweets.new) {
            guard let tab = timelines[new.subscription] else { return }
            apply(.newTweet(tab, new.tweet))
            // Home shows everyone's tweets until one follows someone.
            if tab == .everyone && state.homeIsPublic { apply(.newTweet(.home, new.tweet)) }
        } else if let deleted = try connection.decode(notification, as: API.Tweets.deleted) {
            apply(.tweetDeleted(deleted.id))
        } else if let lagged = try connection.decode(notification, as: API.Tweets.lagged) {
            // The stream fell behind and stopped: read the page again and subscribe from where it stopped.
            guard let tab = timelines.removeValue(forKey: lagged.subscription) else { return }
            Task { await self.resubscribe(tab, from: lagged.resumeFrom) }
        } else if let new = try connection.decode(notification, as: API.Notifications.new) {
            apply(.newNotification(new.notification))
        } else if let lagged = try connection.decode(notification, as: API.Notifications.lagged) {
            perform([.load(.notifications)])
            Task {
                _ = try? await connection.call(API.Notifications.subscribe, .init(sinceId: lagged.resumeFrom))
            }
        } else if let new = try connection.decode(notification, as: API.Messages.new) {
            let message = new.message
            guard let id = message.conversationId, let sender = message.sender?.username, let text = message.text
            else { return }
            let known = state.lists[.messages]?.items.contains { $0.id == id } ?? false
            // A conversation new to the list is read whole: who is in it, what is unread.
            if known {
                apply(
                    .newMessage(
                        conversation: id, people: [sender], sender: sender, text: text, at: message.createdAt ?? Date())
                )
            } else {
                perform([.load(.messages)])
            }
        } else if try connection.decode(notification, as: API.Messages.lagged) != nil {
            perform([.load(.messages)])
            Task { _ = try? await connection.call(API.Messages.subscribe) }
        } else if let revoked = try connection.decode(notification, as: API.Auth.revoked) {
            throw SessionEnded(message: revoked.message)
        }
    }

    private func resubscribe(_ tab: Tab, from resumeFrom: Int64) async {
        guard let connection else { return }
        let name = tab == .home ? "home" : "public"
        if let answer = try? await connection.call(
            API.Timelines.subscribe, .init(timeline: name, sinceId: resumeFrom))
        {
            timelines[answer.subscription] = tab
        }
        perform([.load(tab)])
    }

    // MARK: - Effects

    private func perform(_ effects: [Effect]) {
        for effect in effects {
            Task { await self.execute(effect) }
        }
    }

    private func execute(_ effect: Effect) async {
        guard let connection else {
            if effect.posts { return apply(.postRefused("not connected: waiting for the daemon")) }
            return apply(.failed("not connected: waiting for the daemon"))
        }
        do {
            if let event = try await TUICalls(connection: connection, state: state).answer(effect) { apply(event) }
        } catch {
            if effect.posts { return apply(.postRefused(Self.describe(error))) }
            apply(.failed(Self.describe(error)))
        }
    }

    /// A sentence for the message line, with the fields a refusal names.
    static func describe(_ error: any Error) -> String {
        switch error {
        case ClientError.remote(let error):
            var text = error.message
            if case .object(let fields)? = error.data["fields"] {
                text +=
                    ": "
                    + fields.sorted { $0.key < $1.key }.map { "\($0.value.stringValue ?? "")" }.joined(
                        separator: "; ")
            }
            return text
        case let error as ClientError: return error.description
        default: return "\(error)"
        }
    }
}
