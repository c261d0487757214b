import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `profile.get` and `profile.update`: read a profile, and write only the fields that changed.
struct ProfileMethods: MethodGroup {
    let profiles: any ProfileStoring
    let users: any UserStoring
    let passwords: any PasswordHashing

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Profiles.get,
            .awaited { [profiles] (params: API.Profiles.GetParams, context) -> API.Profiles.ProfileResult in
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
            API.Profiles.update,
            .awaited { (params: API.Profiles.UpdateParams, context) in
                try await update(params, context: context)
            })
    }

    private func update(_ params: API.Profiles.UpdateParams, context: RequestContext) async throws
        -> API.Profiles.Updated
    {
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
        return API.Profiles.Updated(profile: outcome.profile, changed: outcome.changed)
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
}

extension API.Profiles.UpdateParams {
    /// The profile fields of these params, with the e-mail trimmed.
    var patch: ProfilePatch {
        ProfilePatch(
            firstName: firstName, lastName: lastName, email: email?.trimmingCharacters(in: .whitespaces), age: age,
            username: username, bio: bio
        )
    }
}
