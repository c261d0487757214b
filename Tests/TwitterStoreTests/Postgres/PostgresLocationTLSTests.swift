import Testing

@testable import TwitterPostgres

/// `sslmode` and `sslrootcert` in a database URL, as libpq reads them, and what is refused.
struct PostgresLocationTLSTests {
    @Test(arguments: [
        ("postgres://twitterd@db.example.org/twitterd", PostgresLocation.TLSMode.disable),
        ("postgres://twitterd@db.example.org/twitterd?sslmode=disable", .disable),
        ("postgres://twitterd@db.example.org/twitterd?sslmode=require", .require),
        ("postgres://twitterd@db.example.org/twitterd?sslmode=verify-full", .verifyFull(rootCertificates: nil)),
        (
            "postgres://twitterd@db.example.org/twitterd?sslmode=verify-full&sslrootcert=/etc/twitterd/ca.crt",
            .verifyFull(rootCertificates: "/etc/twitterd/ca.crt")
        ),
    ])
    func readsTheMode(url: String, mode: PostgresLocation.TLSMode) throws {
        let location = try PostgresLocation(url: url)
        #expect(location.tls == mode)
        // The description names the mode, so a log line says how the daemon connects.
        #expect(try PostgresLocation(url: location.description) == location)
    }

    @Test(arguments: [
        ("postgres://twitterd@db.example.org/twitterd?sslmode=allow", "is not one of disable, require, verify-full"),
        ("postgres:///twitterd?host=/run/postgresql&sslmode=require", "a Unix socket is not encrypted"),
        ("postgres://twitterd@db.example.org/twitterd?sslmode=require&sslrootcert=/ca.crt", "verify-full only"),
    ])
    func refusesWhatCannotBeMeant(url: String, message: String) {
        #expect {
            _ = try PostgresLocation(url: url)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func verifyFullRefusesARootFileItCannotRead() {
        #expect {
            _ = try PostgresStore.tls(.verifyFull(rootCertificates: "/nonexistent/ca.crt"))
        } throws: { error in
            "\(error)".contains("cannot be read")
        }
    }
}
