import Foundation

/// Runs `read` again until `holds` accepts its answer, and returns that answer; after `seconds`, the last one.
///
/// For the end-to-end tests that run against two daemons on one database: a daemon shows another's write once it
/// has been told of it (PROTOCOL.md, "Read your writes, through any daemon, once it is delivered"), which is an
/// event a client cannot subscribe to for every read, so the test waits for it by asking again. Against one
/// daemon the first answer holds. The caller still asserts on the answer: a read that never comes right fails.
public func eventually<Answer: Sendable>(
    seconds: Double = 10, _ read: () async throws -> Answer, until holds: (Answer) -> Bool
) async throws -> Answer {
    let deadline = Date().addingTimeInterval(seconds)
    var answer = try await read()
    while !holds(answer), Date() < deadline {
        try await Task.sleep(for: .milliseconds(20))
        answer = try await read()
    }
    return answer
}
