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
