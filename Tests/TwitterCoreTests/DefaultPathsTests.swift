import Testing
import TwitterCore

struct DefaultPathsTests {
    @Test(arguments: [
        (
            ["RUNTIME_DIRECTORY": "/run/twitterd", "XDG_RUNTIME_DIR": "/run/user/1000"], UInt32(1000),
            "/run/twitterd/twitterd.sock"
        ),
        (["RUNTIME_DIRECTORY": "/run/a:/run/b"], UInt32(0), "/run/a/twitterd.sock"),
        ([:], UInt32(0), "/run/twitterd/twitterd.sock"),
        (["XDG_RUNTIME_DIR": "/run/user/1000"], UInt32(1000), "/run/user/1000/twitterd/twitterd.sock"),
        ([:], UInt32(1000), "/tmp/twitterd-1000/twitterd.sock"),
    ])
    func socketPath(environment: [String: String], userID: UInt32, expected: String) {
        #expect(DefaultPaths(environment: environment, userID: userID).socketPath == expected)
    }

    @Test(arguments: [
        (["STATE_DIRECTORY": "/var/lib/twitterd"], UInt32(1000), "/var/lib/twitterd/twitterd.sqlite"),
        ([:], UInt32(0), "/var/lib/twitterd/twitterd.sqlite"),
        (
            ["XDG_STATE_HOME": "/home/a/.state", "HOME": "/home/a"], UInt32(1000),
            "/home/a/.state/twitterd/twitterd.sqlite"
        ),
        (["HOME": "/home/a"], UInt32(1000), "/home/a/.local/state/twitterd/twitterd.sqlite"),
    ])
    func databasePath(environment: [String: String], userID: UInt32, expected: String) {
        #expect(DefaultPaths(environment: environment, userID: userID).databasePath == expected)
    }
}
