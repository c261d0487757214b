import Foundation
import JSONRPC
import TwitterCore

/// `profile.get` and `profile.update`: read a profile, and write only the fields that changed.
struct ProfileMethods: MethodGroup {
    let profiles: any ProfileStoring
    let users: any UserStoring
    let passwords: any PasswordHashing

    struct GetParams: Decodable, Sendable {
        var username: String?
    }

    struct UpdateParams: Decodable, Sendable {
        var firstName: String?
        var lastName: String?
        var email: String?
        var age: Int?
        var username: String?
        var bio: String?
        var expectedVersion: Int?
        var currentPassword: String?

        var patch: ProfilePatch {
            ProfilePatch(
                firstName: firstName, lastName: lastName,
                email: email?.trimmingCharacters(in: .whitespaces), age: age, username: username, bio: bio
            )
        }
    }

    struct Updated: Encodable {
        let profile: ProfileView
        let changed: [String]

        init(profile: Profile, changed: [String]) {
            self.profile = ProfileView(profile)
            self.changed = changed
        }
    }

    func register(in router: inout Router<RequestContext>) {
        router.register(
            Self.get,
            .awaited { [profiles] (params: GetParams, context) -> GetResult in
                let login = try context.session.requireLogin()
                if let username = params.username {
                    guard let profile = try await profiles.profile(username: username) else {
                        throw TwitterError.notFound("User \(username)")
                    }
                    return profile.username.lowercased() == login.username.lowercased()
                        ? .own(profile) : .other(profile.publicProfile)
                }
                guard let profile = try await profiles.profile(userID: login.userID) else {
                    throw TwitterError.notFound("Account")
                }
                return .own(profile)
            })
        router.register(
            Self.update,
            .awaited { (params: UpdateParams, context) in
                try await update(params, context: context)
            })
    }

    private func update(_ params: UpdateParams, context: RequestContext) async throws -> Updated {
        let login = try context.session.requireLogin()
        let patch = ProfileRules.normalize(params.patch)
        try ProfileRules.patch.validate(patch)
        if let email = patch.email {
            try await confirmEmailChange(to: email, currentPassword: params.currentPassword, userID: login.userID)
        }
        let outcome = try await profiles.updateProfile(
            userID: login.userID, patch: patch, expectedVersion: params.expectedVersion)
        if outcome.changed.contains("username") {
            context.session.updateLogin { $0.username = outcome.profile.username }
        }
        return Updated(profile: outcome.profile, changed: outcome.changed)
    }

    /// A new e-mail takes over password resets and logins, so changing it needs the password when there is one.
    private func confirmEmailChange(to email: String, currentPassword: String?, userID: Int64) async throws {
        guard let stored = try await profiles.profile(userID: userID), stored.email != email,
            let hash = try await users.passwordHash(userID: userID)
        else { return }
        guard let currentPassword else {
            throw TwitterError.invalidFields(["currentPassword": "is required to change the email"])
        }
        guard try await passwords.verify(currentPassword, against: hash) else {
            throw TwitterError(
                .invalidCredentials, "The current password is wrong", fields: ["currentPassword": "is wrong"])
        }
    }

    /// The caller's own profile in full, or another user's public part.
    enum GetResult: Encodable {
        case own(Profile)
        case other(PublicProfile)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .own(let profile): try ProfileView(profile).encode(to: encoder)
            case .other(let profile): try profile.encode(to: encoder)
            }
        }
    }
}

/// A profile with `age` always present (null until set).
struct ProfileView: Encodable {
    let profile: Profile

    init(_ profile: Profile) {
        self.profile = profile
    }

    enum CodingKeys: String, CodingKey { case username, email, firstName, lastName, age, bio, version, updatedAt }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile.username, forKey: .username)
        try container.encode(profile.email, forKey: .email)
        try container.encode(profile.firstName, forKey: .firstName)
        try container.encode(profile.lastName, forKey: .lastName)
        try container.encode(profile.age, forKey: .age)
        try container.encode(profile.bio, forKey: .bio)
        try container.encode(profile.version, forKey: .version)
        try container.encode(profile.updatedAt, forKey: .updatedAt)
    }
}
