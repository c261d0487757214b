import Foundation
import JSONRPC
import Synchronization
import TestSupport
import Testing
import TwitterClient

/// What must never leak, and what hashing must never block.
@Suite(.serialized) struct SecretsAndHashingTests {
    @Test func noPasswordOrTokenInTheDatabaseFileOrATraceLog() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing, arguments: ["--log-level", "trace"])
        let password = "Sup3r-secret-Passw0rd"
        let newPassword = "An0ther-secret-Passw0rd"
        var secrets = [password, newPassword]
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            secrets.append(try await connection.signUp(email: "ivy@example.com", password: password))
            let created = try await connection.call("tokens.create", ["name": "ci", "password": .string(password)])
            if case .string(let token)? = created["token"] { secrets.append(token) }
            _ = try await connection.callError(
                "auth.login",
                [
                    "provider": "password",
                    "credentials": ["email": "ivy@example.com", "password": .string("wrong-" + password)],
                ]
            )
            _ = try await connection.call(
                "auth.changePassword", ["currentPassword": .string(password), "newPassword": .string(newPassword)])
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let login = try await connection.logIn(email: "ivy@example.com", password: newPassword)
            if case .string(let token)? = login["session"]?["token"] { secrets.append(token) }
            try await connection.logIn(token: secrets[3])
        }
        #expect(daemon.stop() == 0)
        #expect(secrets.count == 5)
        var stored = Data()
        for suffix in ["", "-wal", "-shm"] {
            stored.append(FileManager.default.contents(atPath: daemon.databasePath + suffix) ?? Data())
        }
        #expect(stored.count > 0)
        let log = daemon.log
        #expect(log.contains("TRACE") || log.contains("DEBUG"))
        for secret in secrets {
            #expect(stored.range(of: Data(secret.utf8)) == nil, "a secret is in the database")
            #expect(!log.contains(secret), "a secret is in the log")
        }
    }

    @Test func pingsAreAnsweredWhileSixteenLoginsHash() async throws {
        // One hashing thread and a deliberately slow cost, so the logins are certainly still pending.
        let daemon = try await DaemonProcess(
            configuration: "[auth]\nhashing_threads = 1\npassword_ops_limit = 3\npassword_mem_limit_kib = 65536\n"
        )
        _ = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "jack@example.com")
        }
        let finishedLogins = Counter()
        let (completions, completed) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    _ = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                        try await connection.logIn(email: "jack@example.com")
                    }
                    finishedLogins.increment()
                    completed.yield()
                }
            }
            // Once the first login is done the daemon is surely hashing, with the others queued behind it.
            var iterator = completions.makeAsyncIterator()
            _ = await iterator.next()
            let loginsDoneWhenPingsWere = try await RPCConnection.withConnection(socketPath: daemon.socketPath) {
                connection in
                for _ in 0..<50 { _ = try await connection.call("system.ping") }
                return finishedLogins.value
            }
            #expect(loginsDoneWhenPingsWere < 16, "the pings were answered while logins were pending")
            try await group.waitForAll()
        }
        #expect(finishedLogins.value == 16)
    }
}

/// A shared count for tasks of one test.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}
