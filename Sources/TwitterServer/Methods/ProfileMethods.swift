import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `profile.get` and `profile.update`: read a profile, and write only the fields that changed.
struct ProfileMethods: MethodGroup {
    let auth: AuthServices
    /// Where `messagesFrom` is kept; nil when the daemon serves no messages.
    var messages: (any MessageStoring)?

    var profiles: any ProfileStoring { auth.profiles }

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Profiles.get, in: .loggedIn,
            { [profiles] (params: API.Profiles.GetParams, context) -> API.Profiles.ProfileResult in
                let login = context.login
                if let username = params.username {
                    guard let profile = try await profiles.profile(username: username) else {
                        throw TwitterError.notFound("User \(username)")
                    }
                    // Whose it is by the account's id: the name this connection logged in with may belong to someone
                    // else by now.
                    let own = try await profiles.profile(userID: login.userID)
                    return own?.username.lowercased() == profile.username.lowercased()
                        ? .own(profile) : .other(profile.publicProfile)
                }
                guard let profile = try await profiles.profile(userID: login.userID) else {
                    throw TwitterError.notFound("Account")
                }
                return .own(profile)
            })
        router.register(
            API.Profiles.update, in: .loggedIn,
            { (params: API.Profiles.UpdateParams, context) in
                try await update(params, context: context)
            })
    }

    private func update(_ params: API.Profiles.UpdateParams, context: LoggedInContext) async throws
        -> API.Profiles.Updated
    {
        let login = context.login
        let patch = ProfileRules.normalize(params.patch)
        try ProfileRules.patch.validate(patch)
        if let email = patch.email {
            try await confirmEmailChange(
                to: email, currentPassword: params.currentPassword, userID: login.userID, peer: context.session.peer)
        }
        var outcome = try await profiles.updateProfile(
            userID: login.userID, patch: patch, expectedVersion: params.expectedVersion)
        if let setting = params.messagesFrom, let messages {
            if try await messages.messagesFrom(of: login.userID) != setting {
                try await messages.setMessagesFrom(setting, of: login.userID)
                outcome.changed.append("messagesFrom")
            }
        }
        if let visible = params.webVisible, try await profiles.isWebVisible(userID: login.userID) != visible {
            try await profiles.setWebVisible(visible, userID: login.userID)
            outcome.changed.append("webVisible")
            outcome.profile.webVisible = visible
        }
        return API.Profiles.Updated(profile: outcome.profile, changed: outcome.changed)
    }

    /// A new e-mail takes over password resets and logins, so changing it needs the password when there is one;
    /// the check is throttled as a login is.
    private func confirmEmailChange(
        to email: String, currentPassword: String?, userID: Int64, peer: PeerCredentials
    ) async throws {
        guard let stored = try await profiles.profile(userID: userID), stored.email != email,
            try await auth.users.passwordHash(userID: userID) != nil
        else { return }
        guard currentPassword != nil else {
            throw TwitterError.invalidFields(["currentPassword": "is required to change the email"])
        }
        _ = try await auth.confirmPassword(currentPassword, of: userID, peer: peer, field: "currentPassword")
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
