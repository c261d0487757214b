import Foundation
import Synchronization
import TwitterCore

/// The real `twitterd` binary running on a temporary socket and database, for end-to-end tests.
///
/// Start-up waits for the daemon's READY=1 on a notify socket, the same event systemd waits for.
public final class DaemonProcess: @unchecked Sendable {
    // @unchecked: the Process is started once in init and afterwards only signalled and waited on, which
    // Foundation's Process allows from any thread.
    /// The folder holding the socket, database, log and configuration.
    public let directory: String
    /// The daemon's socket. With `.postgresqlPair`, each read names the next of the two daemons' sockets in
    /// turn, so the connections a test opens, and the twctl runs it makes, alternate between the daemons.
    public var socketPath: String {
        guard let partner else { return ownSocketPath }
        return turn.withLock { turn in
            turn.toggle()
            return turn ? ownSocketPath : partner.socketPath
        }
    }
    /// This process's own socket.
    public let ownSocketPath: String
    /// The second daemon on the same database, with `.postgresqlPair`.
    public let partner: DaemonProcess?
    private let turn = Mutex(false)
    /// The daemon's SQLite database (with PostgreSQL, only its folder is used, for the token key).
    public let databasePath: String
    /// The store it serves from.
    public let store: TestStore
    /// The PostgreSQL database's URL, with `.postgresql`.
    public let databaseURL: String?
    /// Where its stderr goes.
    public let logPath: String
    /// The notify socket the daemon reports to.
    public let notifications: NotifyListener
    /// The notify datagrams up to and including READY=1.
    public private(set) var notificationsBeforeReady: [String] = []
    private let process: Process

    /// Starts twitterd in `directory` (a new temporary folder by default) with an optional TOML `configuration`;
    /// the socket goes to `socketDirectory` when given (the daemon makes its database folder 0700; a pair's second
    /// daemon's goes to its `partner` folder). The store is the run's (`TestStore.ofThisRun`) unless a test that is
    /// about SQLite's file names `.sqlite`; a daemon started again in the same `directory` finds the same
    /// PostgreSQL database. With a pair, `hostIDs` gives the two daemons `[database] host_id`s, as on two hosts
    /// (by default both have this machine's id, as two daemons of one host).
    public convenience init(
        directory: String? = nil, socketDirectory: String? = nil, configuration: String? = nil,
        arguments: [String] = [], environment: [String: String] = [:], logLevel: String? = "debug",
        launcher: [String] = [], executable: String = BuiltProducts.path(of: "twitterd"), store: TestStore? = nil,
        hostIDs: [String] = []
    ) async throws {
        try await self.init(
            directory: directory, socketDirectory: socketDirectory, configuration: configuration, arguments: arguments,
            environment: environment, logLevel: logLevel, launcher: launcher, executable: executable, store: store,
            sharedURL: nil, hostIDs: hostIDs)
    }

    /// Starts one daemon; with `sharedURL`, the second of a pair, on the first one's database. `hostIDs` are the
    /// host ids of the daemons still to start, this one's first.
    private init(
        directory: String?, socketDirectory: String?, configuration: String?, arguments: [String],
        environment: [String: String], logLevel: String?, launcher: [String], executable: String, store: TestStore?,
        sharedURL: String?, hostIDs: [String]
    ) async throws {
        let folder = try directory ?? TemporaryDirectory.make()
        self.directory = folder
        ownSocketPath = (socketDirectory ?? folder) + "/twitterd.sock"
        databasePath = folder + "/twitterd.sqlite"
        logPath = folder + "/twitterd.log"
        self.store = store ?? .ofThisRun
        databaseURL = self.store == .sqlite ? nil : try sharedURL ?? TestPostgres.database(for: folder)
        notifications = try NotifyListener(path: folder + "/notify-\(UInt32.random(in: 0...UInt32.max)).sock")
        var allArguments = ["--socket", ownSocketPath, "--database", databaseURL ?? databasePath]
        if let logLevel { allArguments += ["--log-level", logLevel] }
        let givenConfiguration = configuration
        var configuration = configuration
        if self.store == .postgresqlPair || sharedURL != nil {
            // Both daemons check each other's tokens: they share the key, as daemons on several hosts must.
            // So do they open each other's messages.
            let keyFolder = sharedURL == nil ? folder : (folder as NSString).deletingLastPathComponent
            configuration =
                (configuration ?? "")
                + "\n[database]\ntoken_key_file = \"\(keyFolder)/token.key\"\n"
                + "messages_key_file = \"\(keyFolder)/messages.key\"\n"
                + (hostIDs.first.map { "host_id = \"\($0)\"\n" } ?? "")
        }
        if let configuration {
            let configPath = folder + "/twitterd.toml"
            try configuration.write(toFile: configPath, atomically: true, encoding: .utf8)
            // Readable by a daemon run as another user (the sandbox test) whatever the umask; it holds no secret.
            chmod(configPath, 0o644)
            allArguments += ["--config", configPath]
        }
        process = Process()
        // A launcher (unshare, setpriv…) runs the daemon the way a sandbox would; it must exec it in place.
        let command = launcher + [executable] + allArguments + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var variables = ProcessInfo.processInfo.environment
        variables["NOTIFY_SOCKET"] = notifications.path
        variables.removeValue(forKey: "JOURNAL_STREAM")
        variables.merge(environment) { _, new in new }
        process.environment = variables
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Only read while waiting; the process is not Sendable, its running state is safe to ask from any thread.
        nonisolated(unsafe) let started = process
        guard let seen = await notifications.waitFor("READY=1", while: { started.isRunning }) else {
            process.terminate()
            throw DaemonError.didNotStart(log: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
        }
        notificationsBeforeReady = seen
        if self.store == .postgresqlPair && sharedURL == nil {
            try FileManager.default.createDirectory(atPath: folder + "/partner", withIntermediateDirectories: true)
            let partnerSockets = socketDirectory.map { $0 + "/partner" }
            if let partnerSockets {
                try FileManager.default.createDirectory(atPath: partnerSockets, withIntermediateDirectories: true)
                chmod(partnerSockets, 0o755)
            }
            partner = try await DaemonProcess(
                directory: folder + "/partner", socketDirectory: partnerSockets, configuration: givenConfiguration,
                arguments: arguments, environment: environment, logLevel: logLevel, launcher: launcher,
                executable: executable, store: .postgresql, sharedURL: databaseURL, hostIDs: Array(hostIDs.dropFirst()))
        } else {
            partner = nil
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The process id.
    public var processID: Int32 { process.processIdentifier }

    /// The configuration file, when one was given.
    public var configurationPath: String { directory + "/twitterd.toml" }

    /// Whether the daemon is still running.
    public var isRunning: Bool { process.isRunning }

    /// Everything the daemon (and its partner) logged so far.
    public var log: String {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "") + (partner?.log ?? "")
    }

    /// Sends `signal` to the daemon and its partner.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
        partner?.send(signal)
    }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    public func stop() -> Int32 {
        send(SIGTERM)
        return waitForExit()
    }

    /// Waits for the daemon (and its partner) to exit and returns its status.
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        _ = partner?.waitForExit()
        return process.terminationStatus
    }

    /// Why a daemon did not come up.
    public enum DaemonError: Error, CustomStringConvertible {
        case didNotStart(log: String)

        /// The reason, with the daemon's log.
        public var description: String {
            switch self {
            case .didNotStart(let log): "twitterd did not become ready; its log:\n\(log)"
            }
        }
    }
}

/// The store an end-to-end daemon serves from.
public enum TestStore: String, Sendable {
    case sqlite, postgresql
    /// Two daemons on one PostgreSQL database, which a test's connections reach in turn.
    case postgresqlPair = "postgresql-pair"

    /// The run's store: `TWITTERD_TEST_STORE=postgresql` runs the end-to-end suite against PostgreSQL (in the
    /// cluster of `scripts/with-postgres.sh`), `postgresql-pair` against two daemons sharing each database;
    /// SQLite otherwise.
    public static var ofThisRun: TestStore {
        ProcessInfo.processInfo.environment["TWITTERD_TEST_STORE"].flatMap(TestStore.init(rawValue:)) ?? .sqlite
    }
}

/// Runs a built executable to completion and returns its status, standard output and standard error.
public func runProduct(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuiltProducts.path(of: name))
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let output = Pipe()
    let error = Pipe()
    let inputPipe = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inputPipe.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty process cannot block on a full pipe.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outputData, as: UTF8.self),
        String(decoding: errorData, as: UTF8.self)
    )
}

extension DaemonProcess {
    /// Configuration that makes Argon2id as cheap as libsodium allows, for tests that log in often.
    public static let fastHashing = "[auth]\npassword_ops_limit = 1\npassword_mem_limit_kib = 8\n"

    /// Configuration that lifts every write rate limit, for tests that write far faster than any person.
    public static let unlimitedWrites =
        "[rates]\n" + RateLimitedAction.allCases.map { "\($0.rawValue) = \"off\"\n" }.joined() + "\n"
}
