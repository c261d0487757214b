import ArgumentParser
import Foundation
import PasswordLogin
import Sodium
import TwitterAssembly
import TwitterClient
import TwitterCore
import TwitterSQLite
import TwitterServer

/// `twitterd seed`: fills a database with random users and tweets, for demos and benchmarks.
struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fill a database with random users and tweets.",
        discussion: """
            Users are seed1…seedN with e-mails seedN@example.com and the password "\(Seed.password)".
            Run it while the daemon is stopped, or against a separate file.
            """
    )

    static let password = "seed-password"

    @Option(help: "How many users to add.")
    var users = 100

    @Option(help: "How many tweets to add.")
    var tweets = 1000

    @Option(
        help: ArgumentHelp(
            "Make each user follow about this many others, and add replies, reposts and likes.",
            discussion: "Follows go by popularity: a few accounts get very many followers, most get few."))
    var follows = 0

    @Option(
        help: ArgumentHelp(
            "The seed of the random content (default: the time).",
            discussion: "The same seed and counts make the same users, tweets, follows and likes, so a benchmark "
                + "that counts instructions reads the same database each run."))
    var randomSeed: UInt64?

    @Option(help: "The SQLite database file (default: the daemon's).")
    var database: String?

    @Option(help: "A TOML configuration file, for the database path and the password cost.")
    var config: String?

    func validate() throws {
        guard users >= 1 else { throw ValidationError("--users must be at least 1") }
        guard tweets >= 0 else { throw ValidationError("--tweets can not be negative") }
        guard follows >= 0 else { throw ValidationError("--follows can not be negative") }
    }

    func run() async throws {
        let settings = try StartupConfiguration.load(
            file: config, socket: nil, database: database, logLevel: nil,
            environment: ProcessInfo.processInfo.environment
        )
        try StateFolder.prepare(databasePath: settings.databasePath)
        // Seeding writes for minutes; under a serving daemon it would hold the write lock against every post.
        let lock: DatabaseLock
        do {
            lock = try DatabaseLock(databasePath: settings.databasePath)
        } catch {
            FileHandle.standardError.write(
                Data("twitterd seed: \(error). Run it while the daemon is stopped, or against a separate file.\n".utf8))
            throw ExitCode(75)  // EX_TEMPFAIL
        }
        defer { withExtendedLifetime(lock) {} }
        let store = try AppDatabase.open(path: settings.databasePath)
        defer { try? store.close() }
        let hasher = try PasswordHasher(cost: settings.auth.passwordHashCost, threads: 1, queueLimit: 1)
        let hash = try await hasher.hash(Self.password)
        let seeder = DatabaseSeeder(database: store)
        var content = RandomContent(seed: randomSeed ?? UInt64(Date().timeIntervalSince1970))
        let started = ContinuousClock.now
        var bar = ProgressBar(label: "users", total: users)
        guard
            let authors = try await seeder.addUsers(
                users, passwordHash: hash, content: &content, progress: { bar.update($0) })
        else { return }
        bar.finish()
        bar = ProgressBar(label: "tweets", total: tweets)
        try await seeder.addTweets(tweets, authors: authors, content: &content, progress: { bar.update($0) })
        bar.finish()
        if follows > 0 {
            bar = ProgressBar(label: "follows", total: users)
            try await seeder.addFollows(
                average: follows, users: authors, content: &content, progress: { bar.update($0) })
            bar.finish()
            // A tenth of the tweets get a reply, a twentieth a repost, and there are half as many likes as tweets.
            let (replies, reposts, likes) = (tweets / 10, tweets / 20, tweets / 2)
            bar = ProgressBar(label: "replies, reposts, likes", total: replies + reposts + likes)
            try await seeder.addEngagement(
                replies: replies, reposts: reposts, likes: likes, users: authors, content: &content,
                progress: { bar.update($0) })
            bar.finish()
        }
        let elapsed = ContinuousClock.now - started
        print(
            "seeded \(users) users\(follows > 0 ? " following about \(follows) each" : "") and \(tweets) tweets into \(settings.databasePath) in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))"
        )
    }
}
