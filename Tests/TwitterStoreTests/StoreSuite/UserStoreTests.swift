import Foundation
import Testing
import TwitterCore

struct UserStoreTests {
    @Test(arguments: StoreBackend.all) func emailAndUsernameAreUniqueIgnoringCase(_ backend: StoreBackend) async throws
    {
        let store = try await backend.fixture().users
        let alice = try await store.createUser(email: "Alice@Example.com", username: "alice", passwordHash: nil)
        #expect(try await store.user(email: "alice@example.COM")?.id == alice.id)
        await #expect(throws: TwitterError.self) {
            _ = try await store.createUser(email: "ALICE@example.com", username: "other", passwordHash: nil)
        }
        do {
            _ = try await store.createUser(email: "ÉLODIE@example.com", username: "ALICE", passwordHash: nil)
            Issue.record("a taken username was accepted")
        } catch let error as TwitterError {
            #expect(error.kind == .conflict)
            #expect(error.fields.keys.sorted() == ["username"])
        }
        _ = try await store.createUser(email: "élodie@example.com", username: "elodie", passwordHash: nil)
        do {
            _ = try await store.createUser(email: "ÉLODIE@EXAMPLE.COM", username: "alice", passwordHash: nil)
            Issue.record("a taken email was accepted")
        } catch let error as TwitterError {
            #expect(error.fields.keys.sorted() == ["email", "username"])
        }
    }

    @Test(arguments: StoreBackend.all) func signupsRacingForOneNameGetOneAccountAndConflictsNamingIt(
        _ backend: StoreBackend
    ) async throws {
        let store = try await backend.fixture().users
        for round in 0..<6 {
            // At once, so on a server the checks can all pass before any insert: the unique index decides.
            let outcomes = await withTaskGroup(of: (any Error)?.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await store.createUser(
                                email: "racer\(round)-\(index)@example.com",
                                username: index.isMultiple(of: 2) ? "Racer\(round)" : "racer\(round)", passwordHash: nil
                            )
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                return await group.reduce(into: [(any Error)?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 1)
            for case let error? in outcomes {
                #expect((error as? TwitterError)?.kind == .conflict, "\(error)")
                #expect((error as? TwitterError)?.fields == ["username": "Username is already taken"])
            }
        }
        #expect(try await store.isUsernameTaken("RACER0"))
    }
}
