import Foundation

/// The throwaway PostgreSQL cluster `scripts/with-postgres.sh` starts for a test run, and fresh databases in it.
///
/// A test that needs PostgreSQL fails, saying how to run it, when the cluster is absent: `make test` always
/// starts one, so its absence is a mistake in how the tests were run, not something to skip quietly.
public enum TestPostgres {
    /// The cluster's URL (its `postgres` database, as the superuser), from the environment.
    public static var clusterURL: String? {
        ProcessInfo.processInfo.environment["TWITTERD_TEST_POSTGRES"]
    }

    /// Why PostgreSQL tests cannot run here, when they cannot.
    public static var unavailableReason: String? {
        clusterURL == nil
            ? "no PostgreSQL test cluster: TWITTERD_TEST_POSTGRES is unset; run the tests through `make test` or "
                + "`sh scripts/with-postgres.sh swift test`, which start one"
            : nil
    }

    /// Creates an empty database of its own and returns its URL.
    public static func freshDatabase() throws -> String {
        guard let clusterURL, let components = URLComponents(string: clusterURL),
            let folder = components.queryItems?.first(where: { $0.name == "host" })?.value
        else { throw TestPostgresError(unavailableReason ?? "TWITTERD_TEST_POSTGRES is no URL with a host folder") }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try runSQL("CREATE DATABASE \(name)", folder: folder)
        return "postgres://twitterd@/\(name)?host=\(folder)"
    }

    /// The cluster's folder (socket, `data/`, `start.sh`).
    static func clusterFolder() throws -> String {
        guard let clusterURL, let components = URLComponents(string: clusterURL),
            let folder = components.queryItems?.first(where: { $0.name == "host" })?.value
        else { throw TestPostgresError(unavailableReason ?? "TWITTERD_TEST_POSTGRES is no URL with a host folder") }
        return folder
    }

    /// Kills the postmaster with SIGKILL, as a crash or the OOM killer would, and waits until it and every
    /// server process it left are gone, so it can start again.
    public static func killServer() throws {
        let folder = try clusterFolder()
        let pidFile = try String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8)
        guard let pid = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw TestPostgresError("no postmaster pid in \(folder)/data/postmaster.pid")
        }
        kill(pid, SIGKILL)
        // Its backends notice the postmaster's death and exit; a new postmaster refuses to start while any of
        // them still holds the shared memory.
        let deadline = Date().addingTimeInterval(30)
        while kill(pid, 0) == 0 || serverProcessesRemain(folder: folder) {
            guard Date() < deadline else { throw TestPostgresError("the killed server's processes did not exit") }
            usleep(20_000)
        }
    }

    /// Starts the cluster again the way `scripts/with-postgres.sh` did, waiting until it accepts connections.
    /// Spawned and waited for by hand: Foundation's `Process` left `runuser` (which `start.sh` runs as root) a
    /// zombie and never returned from `waitUntilExit`.
    public static func startServer() throws {
        let folder = try clusterFolder()
        let arguments = ["/bin/sh", folder + "/start.sh"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ) == 0 else {
            throw TestPostgresError("cannot run \(folder)/start.sh")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
            throw TestPostgresError("the server did not start again:\n\(log.suffix(2000))")
        }
    }

    /// Whether a server process of the cluster still runs: every one works in the data folder.
    private static func serverProcessesRemain(folder: String) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            entry.allSatisfy(\.isNumber)
                && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/cwd")) == folder
                    + "/data"
        }
    }

    /// The database of the daemon whose folder is `folder`: made on the first start, found again on a restart.
    public static func database(for folder: String) throws -> String {
        let file = folder + "/postgres.url"
        if let url = try? String(contentsOfFile: file, encoding: .utf8) { return url }
        let url = try freshDatabase()
        try url.write(toFile: file, atomically: true, encoding: .utf8)
        return url
    }

    /// Runs `sql` in the database at `url` (one `freshDatabase` made) with `psql`.
    public static func runSQL(_ sql: String, in url: String) throws {
        guard let components = URLComponents(string: url),
            let folder = components.queryItems?.first(where: { $0.name == "host" })?.value
        else { throw TestPostgresError("\(url) is no URL with a host folder") }
        try runSQL(sql, folder: folder, database: String(components.path.dropFirst()))
    }

    /// The rows `sql` answers in the database at `url`, one line each, columns separated by `|` (`psql -At`).
    public static func query(_ sql: String, in url: String) throws -> [String] {
        guard let components = URLComponents(string: url),
            let folder = components.queryItems?.first(where: { $0.name == "host" })?.value
        else { throw TestPostgresError("\(url) is no URL with a host folder") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [
            "-h", folder, "-U", "twitterd", "-d", String(components.path.dropFirst()), "-X", "-A", "-t", "-v",
            "ON_ERROR_STOP=1", "-c", sql,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestPostgresError("psql \(sql) failed") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Runs `sql` in the cluster's database `database` with `psql`.
    public static func runSQL(_ sql: String, folder: String, database: String = "postgres") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [
            "-h", folder, "-U", "twitterd", "-d", database, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestPostgresError("psql \(sql): \(String(decoding: message, as: UTF8.self))")
        }
    }
}

/// The test cluster could not do what a test asked.
public struct TestPostgresError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
