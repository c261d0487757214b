import Testing
import TwitterCore

/// `users.web_visible`: every account on the web until it says otherwise, kept apart from the profile's
/// versioned fields, each change reported as a commit (`AccountEvent.webVisibilityChanged`). One suite, every
/// backend.
struct WebVisibilityStoreTests {
    @Test(arguments: StoreBackend.all) func anAccountIsOnTheWebUntilItTakesItselfOff(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.users.createUser(email: "a@example.com", username: "alice", passwordHash: nil)
        let bob = try await fixture.users.createUser(email: "b@example.com", username: "bob", passwordHash: nil)
        #expect(try await fixture.profiles.isWebVisible(userID: alice.id))
        #expect(try await fixture.profiles.webHiddenUsers() == [])
        try await fixture.profiles.setWebVisible(false, userID: alice.id)
        #expect(try await fixture.profiles.isWebVisible(userID: alice.id) == false)
        #expect(try await fixture.profiles.isWebVisible(userID: bob.id))
        #expect(try await fixture.profiles.webHiddenUsers() == [alice.id])
        let profile = try #require(try await fixture.profiles.profile(userID: alice.id))
        #expect(profile.version == 1, "the flag is not one of the profile's versioned fields")
        try await fixture.profiles.setWebVisible(true, userID: alice.id)
        #expect(try await fixture.profiles.webHiddenUsers() == [])
        try await fixture.profiles.setWebVisible(true, userID: bob.id)
        #expect(try await fixture.profiles.isWebVisible(userID: bob.id))
        #expect(try await fixture.profiles.isWebVisible(userID: 999_999) == false, "no account is on the web")
        // What the read model's set of the accounts off the web follows: each change, once; no event for a flag
        // set to what it was.
        let moves = fixture.commits.events.compactMap { event -> AccountEvent? in
            guard case .account(let account) = event, case .webVisibilityChanged = account else { return nil }
            return account
        }
        #expect(
            moves == [
                .webVisibilityChanged(userID: alice.id, visible: false),
                .webVisibilityChanged(userID: alice.id, visible: true),
            ])
    }
}
