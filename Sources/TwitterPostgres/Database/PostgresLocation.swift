import Foundation

/// Where a PostgreSQL database is, read from a libpq-style URL: `postgres://USER@HOST:PORT/DB`,
/// `postgresql://…`, or a Unix socket folder as the host, either percent-encoded in the authority or as a
/// `host` parameter (`postgres:///twitterd?host=/run/postgresql`). Defaults follow libpq: the socket folder of
/// Debian's server, port 5432, the effective Unix user, and a database named like the user.
///
/// A password is never part of the location: it would show in `ps`, in the journal and in unit files. It comes
/// from `[database] password_file`. Over TCP, `sslmode` says whether to use TLS as libpq's does: `disable` (the
/// default), `require` (encrypted, the server's certificate not checked) or `verify-full` (checked against
/// `sslrootcert`, a PEM file of trusted CAs, or the system's, and the host name against the certificate).
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Sendable, Equatable {
        /// A Unix socket in this folder.
        case socket(folder: String)
        /// TCP to this host name or address.
        case tcp(host: String)
    }

    /// How the server is reached.
    public var endpoint: Endpoint
    /// The server's port (also part of its socket's file name).
    public var port: Int
    /// The role to log in as.
    public var user: String
    /// The database's name.
    public var database: String
    /// Whether and how the connection is encrypted.
    public var tls: TLSMode = .disable

    /// TLS for a TCP connection, as libpq's `sslmode`.
    public enum TLSMode: Sendable, Equatable {
        /// No TLS: a Unix socket, or a network only the hosts reach.
        case disable
        /// TLS, refusing a server that does not offer it; its certificate is not checked.
        case require
        /// TLS with the server's certificate checked against `rootCertificates` (a PEM file; nil for the
        /// system's trusted CAs) and its name against the host's.
        case verifyFull(rootCertificates: String?)
    }

    /// Whether `text` names a PostgreSQL database rather than a SQLite file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a location from `url`; throws a `PostgresLocationError` naming what is wrong with it.
    public init(url: String) throws {
        guard Self.isURL(url), let components = URLComponents(string: url) else {
            throw PostgresLocationError("\(url.prefix(12))…: not a postgres:// or postgresql:// URL")
        }
        guard components.password == nil else {
            throw PostgresLocationError(
                "the URL holds a password; put it in a file named by [database] password_file instead")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        let known: Set = ["host", "port", "user", "dbname", "sslmode", "sslrootcert"]
        if let unknown = parameters.keys.sorted().first(where: { !known.contains($0) }) {
            throw PostgresLocationError(
                "unknown URL parameter \"\(unknown)\" (known: host, port, user, dbname, sslmode, sslrootcert)")
        }
        let host = parameters["host"] ?? components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? ""
        if host.isEmpty || host.hasPrefix("/") {
            endpoint = .socket(folder: host.isEmpty ? "/run/postgresql" : host)
        } else {
            endpoint = .tcp(host: host)
        }
        if let text = parameters["port"] {
            guard let port = Int(text), (1...65535).contains(port) else {
                throw PostgresLocationError("port \"\(text)\" is not a port number")
            }
            self.port = port
        } else {
            port = components.port ?? 5432
        }
        user = parameters["user"] ?? components.user.flatMap { $0.removingPercentEncoding } ?? Self.effectiveUser
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = parameters["dbname"] ?? (path.isEmpty ? user : path.removingPercentEncoding ?? path)
        guard !user.isEmpty else { throw PostgresLocationError("no user name, and none for the effective uid") }
        switch parameters["sslmode"] {
        case nil, "disable": tls = .disable
        case "require": tls = .require
        case "verify-full": tls = .verifyFull(rootCertificates: parameters["sslrootcert"])
        case let mode?:
            throw PostgresLocationError("sslmode \"\(mode)\" is not one of disable, require, verify-full")
        }
        if tls != .disable, case .socket = endpoint {
            throw PostgresLocationError("sslmode applies to TCP; a Unix socket is not encrypted")
        }
        if parameters["sslrootcert"] != nil, case .require = tls {
            throw PostgresLocationError("sslrootcert is read with sslmode=verify-full only")
        }
    }

    /// The socket file of a Unix-socket endpoint: PostgreSQL names it after the port.
    public var socketPath: String? {
        guard case .socket(let folder) = endpoint else { return nil }
        return folder + "/.s.PGSQL.\(port)"
    }

    /// The location as a URL, without a password (there is none to leave out).
    public var description: String {
        switch endpoint {
        case .socket(let folder): "postgres://\(user)@/\(database)?host=\(folder)&port=\(port)"
        case .tcp(let host):
            switch tls {
            case .disable: "postgres://\(user)@\(host):\(port)/\(database)"
            case .require: "postgres://\(user)@\(host):\(port)/\(database)?sslmode=require"
            case .verifyFull(let roots):
                "postgres://\(user)@\(host):\(port)/\(database)?sslmode=verify-full"
                    + (roots.map { "&sslrootcert=\($0)" } ?? "")
            }
        }
    }

    /// The name of the effective Unix user, libpq's default role.
    private static var effectiveUser: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "" }
        return String(cString: name)
    }
}

/// A database URL that cannot be used, and why.
public struct PostgresLocationError: Error, CustomStringConvertible {
    /// What is wrong with it.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
