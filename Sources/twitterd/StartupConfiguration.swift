import Foundation
import TwitterCore
import TwitterServer

/// Defaults, then the configuration file, then the flags: the later one wins.
enum StartupConfiguration {
    static func load(
        file: String?, socket: String?, database: String?, logLevel: String?, http: [String] = [],
        environment: [String: String]
    ) throws(ConfigurationError) -> ServerConfiguration {
        let paths = DefaultPaths(environment: environment, userID: geteuid())
        var configuration = ServerConfiguration(socketPath: paths.socketPath, databasePath: paths.databasePath)
        if let file { try ConfigurationFile(path: file).apply(to: &configuration) }
        if let socket { configuration.socketPath = socket }
        if let database {
            // A URL selects PostgreSQL; anything else is a SQLite file.
            if database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") {
                configuration.database.url = database
            } else {
                configuration.databasePath = database
                configuration.database.url = nil
            }
        }
        if !http.isEmpty {
            configuration.http.listen = try http.map { (text) throws(ConfigurationError) in
                try HTTPListenAddress(parsing: text, key: "--http")
            }
        }
        if let logLevel { configuration.logLevel = try ConfigurationFile.logLevel(logLevel, key: "--log-level") }
        return configuration
    }
}
