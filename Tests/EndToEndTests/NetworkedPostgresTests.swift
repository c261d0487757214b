import Foundation
import JSONRPC
import Synchronization
import TestSupport
import Testing
import TwitterClient

/// Daemons on other hosts than the database, as in production: PostgreSQL and each daemon in a network namespace of
/// its own, joined by veth pairs, over TCP with TLS (`sslmode=verify-full` against a CA this test makes, and
/// `sslmode=require`) and SCRAM passwords; the server refuses anything else. Then a daemon's link is cut under
/// posting clients and restored: it says `degraded` while cut, serves again once restored, nothing answered is
/// lost and the other daemon's live stream shows every post once.
///
/// It needs root (network namespaces, and PostgreSQL runs as its `postgres` user) and `ip`; as root, anything
/// missing is a failure, not a skip.
@Suite(.serialized) struct NetworkedPostgresTests {
    static let ip = "/usr/sbin/ip"

    @Test(.enabled(if: geteuid() == 0, "network namespaces need root"))
    func twoHostsOverTLSSurviveALinkCutLosingNothingAndDoublingNothing() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.ip), "\(Self.ip) is missing: install iproute2")
        let bin = try #require(
            ProcessInfo.processInfo.environment["TWITTERD_TEST_POSTGRES_BIN"],
            "no PostgreSQL server: run through scripts/with-postgres.sh, which names its bin folder")
        let network = try TestNetwork()
        defer { network.tearDown() }
        let folder = try TemporaryDirectory.make()
        try network.startPostgres(bin: bin, folder: folder)

        let host = TestNetwork.databaseName
        let common =
            DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites
            + "[database]\npassword_file = \"\(folder)/pg.password\"\ntoken_key_file = \"\(folder)/token.key\"\n"
        let checked = "postgres://twitterd@\(host):5432/twitterd?sslmode=verify-full&sslrootcert=\(folder)/ca.crt"
        let encrypted = "postgres://twitterd@\(host):5432/twitterd?sslmode=require"
        let a = try await DaemonProcess(
            configuration: common, arguments: ["--database", checked], launcher: network.exec(in: network.a),
            store: .sqlite)
        let b = try await DaemonProcess(
            configuration: common, arguments: ["--database", encrypted], launcher: network.exec(in: network.b),
            store: .sqlite)
        // Both reached the server over TLS; without it the server refuses the login (hostssl only).
        let ssl = try network.psql(
            "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE ssl AND usename = 'twitterd'",
            folder: folder)
        #expect((Int(ssl) ?? 0) >= 2, "TLS connections of twitterd: \(ssl)")
        await #expect(throws: (any Error).self, "a daemon without TLS is refused") {
            _ = try await DaemonProcess(
                configuration: common, arguments: ["--database", "postgres://twitterd@\(host):5432/twitterd"],
                launcher: network.exec(in: network.b), store: .sqlite)
        }

        let token = try await RPCConnection.withConnection(socketPath: a.ownSocketPath) { connection in
            try await connection.signUp(email: "poster@example.com", username: "poster")
        }
        // B's live stream: every post, through the commit log, once.
        let stream = try RawSocket(path: b.ownSocketPath)
        stream.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":1}"#
                + "\n")
        #expect(stream.readLine()?.contains("\"user\"") == true)
        stream.send(#"{"jsonrpc":"2.0","method":"tweets.subscribe","id":2}"# + "\n")
        #expect(stream.readLine()?.contains("subscription") == true)

        let answered = AnsweredPosts()
        let stop = AnsweredPosts.Flag()
        var sawDegraded = false
        var sawBack = false
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<4 {
                group.addTask {
                    try await RPCConnection.withConnection(socketPath: a.ownSocketPath) { connection in
                        try await connection.logIn(token: token)
                        var index = 0
                        while !stop.isSet {
                            index += 1
                            do {
                                let result = try await connection.call(
                                    "tweets.post", ["text": .string("client \(client) post \(index)")])
                                if case .number(let id)? = result["id"], let value = id.int64 { answered.add(value) }
                            } catch ClientError.remote(let error) where error.code == -32008 {
                                try await Task.sleep(for: .milliseconds(50))
                            }
                        }
                    }
                }
            }
            try await PostgresFaultTests.waitUntil { answered.count >= 100 }
            try network.link(up: false)
            sawDegraded = try await PostgresFaultTests.eventually {
                try await Self.health(a.ownSocketPath) == "degraded"
            }
            try network.link(up: true)
            sawBack = try await PostgresFaultTests.eventually { try await Self.health(a.ownSocketPath) == "ok" }
            let resumedAt = answered.count
            try await PostgresFaultTests.waitUntil { answered.count >= resumedAt + 100 }
            stop.set()
            try await group.waitForAll()
        }
        #expect(sawDegraded, "system.health said degraded while the link was down")
        #expect(sawBack, "system.health said ok once the link was back")

        let present = try await RPCConnection.allTweetIDs(socket: b.ownSocketPath, token: token)
        let missing = answered.all.subtracting(present)
        #expect(missing.isEmpty, "answered but lost: \(missing.sorted().prefix(20))")
        // The stream shows every post, each once.
        var streamed: [Int64] = []
        while Set(streamed).count < present.count, let line = stream.readLine() {
            let message = try JSONParser().parse(line)
            if message["method"] == "tweets.new", case .number(let id)? = message["params"]?["tweet"]?["id"],
                let value = id.int64
            {
                streamed.append(value)
            }
        }
        #expect(Set(streamed) == present)
        #expect(streamed.count == Set(streamed).count, "doubled on the live stream")
        #expect(a.stop() == 0)
        #expect(b.stop() == 0)
    }

    static func health(_ socket: String) async throws -> JSONValue? {
        try await RPCConnection.withConnection(socketPath: socket) { connection in
            try await connection.call("system.health")["status"]
        }
    }
}

/// Three network namespaces, the database's and two daemons', each daemon's joined to the database's by a veth
/// pair with addresses in 10.231.0.0/16, which exist only inside them; the database's name resolves to its address
/// in each daemon's namespace through /etc/netns/NAME/hosts, which `ip netns exec` mounts over /etc/hosts.
final class TestNetwork: Sendable {
    static let databaseName = "db.twitterd.test"
    let suffix = String(UInt32.random(in: 0..<1_000_000))
    var database: String { "twdb\(suffix)" }
    var a: String { "twa\(suffix)" }
    var b: String { "twb\(suffix)" }
    private let postgres = Mutex<(bin: String, data: String)?>(nil)

    init() throws {
        for name in [database, a, b] {
            try Self.run([NetworkedPostgresTests.ip, "netns", "add", name])
        }
        for (index, name) in [(1, a), (2, b)] {
            let here = "twd\(index)\(suffix)"
            let there = "twh\(index)\(suffix)"
            try Self.run([NetworkedPostgresTests.ip, "link", "add", here, "type", "veth", "peer", "name", there])
            try Self.run([NetworkedPostgresTests.ip, "link", "set", here, "netns", database])
            try Self.run([NetworkedPostgresTests.ip, "link", "set", there, "netns", name])
            try Self.run([
                NetworkedPostgresTests.ip, "-n", database, "addr", "add", "10.231.\(index).1/24", "dev", here,
            ])
            try Self.run([NetworkedPostgresTests.ip, "-n", name, "addr", "add", "10.231.\(index).2/24", "dev", there])
            try Self.run([NetworkedPostgresTests.ip, "-n", database, "link", "set", here, "up"])
            try Self.run([NetworkedPostgresTests.ip, "-n", name, "link", "set", there, "up"])
            try FileManager.default.createDirectory(atPath: "/etc/netns/\(name)", withIntermediateDirectories: true)
            try "127.0.0.1 localhost\n10.231.\(index).1 \(Self.databaseName)\n"
                .write(toFile: "/etc/netns/\(name)/hosts", atomically: true, encoding: .utf8)
        }
        for name in [database, a, b] {
            try Self.run([NetworkedPostgresTests.ip, "-n", name, "link", "set", "lo", "up"])
        }
    }

    /// The launcher that runs a daemon in namespace `name`.
    func exec(in name: String) -> [String] {
        [NetworkedPostgresTests.ip, "netns", "exec", name]
    }

    /// Cuts or restores daemon A's link, on the database's side.
    func link(up: Bool) throws {
        try Self.run([NetworkedPostgresTests.ip, "-n", database, "link", "set", "twd1\(suffix)", up ? "up" : "down"])
    }

    /// A CA and the server's certificate for `databaseName` (openssl), and a cluster in the database's namespace
    /// listening on its two addresses with TLS only and SCRAM passwords; the role `twitterd` and its database.
    func startPostgres(bin: String, folder: String) throws {
        chmod(folder, 0o755)
        let name = Self.databaseName
        try Self.shell(
            """
            set -e
            cd '\(folder)'
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.crt \
                -days 2 -subj /CN=twitterd-test-ca 2>/dev/null
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
                -subj /CN=\(name) 2>/dev/null
            printf 'subjectAltName=DNS:\(name)\\n' > server.ext
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 \
                -extfile server.ext 2>/dev/null
            mkdir pg && chown postgres: pg server.key server.crt && chmod 600 server.key
            printf 'correct horse postgres' > pg.password && chmod 600 pg.password
            runuser -u postgres -- '\(bin)/initdb' -D pg/data -U postgres --auth-local=trust -E UTF8 \
                --locale=C.UTF-8 >pg/initdb.log 2>&1
            cat >> pg/data/postgresql.conf <<CONF
            listen_addresses = '10.231.1.1,10.231.2.1'
            unix_socket_directories = '\(folder)/pg'
            ssl = on
            ssl_cert_file = '\(folder)/server.crt'
            ssl_key_file = '\(folder)/server.key'
            password_encryption = 'scram-sha-256'
            fsync = off
            CONF
            printf 'local all all trust\\nhostssl all all 10.231.0.0/16 scram-sha-256\\n' > pg/data/pg_hba.conf
            \(NetworkedPostgresTests.ip) netns exec \(database) runuser -u postgres -- '\(bin)/pg_ctl' -D pg/data \
                -l pg/server.log -w -t 60 start >/dev/null
            runuser -u postgres -- '\(bin)/psql' -h '\(folder)/pg' -U postgres -q \
                -c "CREATE ROLE twitterd LOGIN PASSWORD 'correct horse postgres'" \
                -c "CREATE DATABASE twitterd OWNER twitterd"
            """)
        postgres.withLock { $0 = (bin, folder + "/pg/data") }
    }

    /// One value from the server, as its superuser over the socket.
    func psql(_ query: String, folder: String) throws -> String {
        guard let (bin, _) = postgres.withLock({ $0 }) else { throw TestPostgresError("no server") }
        return try Self.shell(
            // From a folder postgres may enter: psql run in a private checkout says it cannot, on the output read.
            "cd '\(folder)' && runuser -u postgres -- '\(bin)/psql' -h '\(folder)/pg' -U postgres -d twitterd -Atc \"\(query)\""
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server and deletes the namespaces (and with them the veth pairs) and their hosts files.
    func tearDown() {
        if let (bin, data) = postgres.withLock({ $0 }) {
            _ = try? Self.shell("cd / && runuser -u postgres -- '\(bin)/pg_ctl' -D '\(data)' -m immediate -w stop")
        }
        for name in [database, a, b] {
            _ = try? Self.run([NetworkedPostgresTests.ip, "netns", "del", name])
            try? FileManager.default.removeItem(atPath: "/etc/netns/\(name)")
        }
    }

    @discardableResult
    static func shell(_ script: String) throws -> String {
        try run(["/bin/sh", "-c", script])
    }

    /// Runs `arguments` and returns its output; throws with the output when it fails. Spawned and waited for by
    /// hand, as TestPostgres does: Foundation's Process never returned from a `runuser` it had started.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let output = try TemporaryDirectory.make() + "/output"
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else {
            throw TestPostgresError("cannot run \(arguments[0])")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard status == 0 else { throw TestPostgresError("\(arguments.joined(separator: " ")) failed:\n\(text)") }
        return text
    }
}
