import Foundation

// @MemberwiseInit
/// An account's editable profile, as its owner sees it.
public struct Profile: Sendable, Hashable, Codable {
    /// The public handle.
    public var username: String
    /// The e-mail address (private).
    public var email: String
    /// The first name.
    public var firstName: String
    /// The last name.
    public var lastName: String
    /// The age in years (private); nil until set.
    public var age: Int?
    /// A short text about the person, at most 160 characters.
    public var bio: String
    /// Grows by one with every write, so two editors cannot silently overwrite each other.
    public var version: Int
    /// When the profile last changed.
    public var updatedAt: Date
    /// Whether the profile and tweets are on the public web pages (`profile.update {webVisible}`); true until the
    /// owner says otherwise.
    public var webVisible: Bool = true

    /// What other users may see: no e-mail, no age.
    public var publicProfile: PublicProfile {
        PublicProfile(username: username, firstName: firstName, lastName: lastName, bio: bio)
    }
}

// @MemberwiseInit
/// The part of a profile anyone logged in may read.
public struct PublicProfile: Sendable, Hashable, Codable {
    /// The public handle.
    public var username: String
    /// The first name.
    public var firstName: String
    /// The last name.
    public var lastName: String
    /// The bio.
    public var bio: String
}

// @MemberwiseInit
/// The fields a profile update submits; nil means "leave as it is".
public struct ProfilePatch: Sendable, Hashable, Decodable {
    /// A new first name.
    public var firstName: String?
    /// A new last name.
    public var lastName: String?
    /// A new e-mail address.
    public var email: String?
    /// A new age.
    public var age: Int?
    /// A new username.
    public var username: String?
    /// A new bio.
    public var bio: String?
}

extension ProfilePatch {
    /// The part of this patch whose values differ from `profile`: exactly what an update has to write.
    public func differences(from profile: Profile) -> ProfilePatch {
        ProfilePatch(
            firstName: firstName.flatMap { $0 == profile.firstName ? nil : $0 },
            lastName: lastName.flatMap { $0 == profile.lastName ? nil : $0 },
            email: email.flatMap { $0 == profile.email ? nil : $0 },
            age: age.flatMap { $0 == profile.age ? nil : $0 },
            username: username.flatMap { $0 == profile.username ? nil : $0 },
            bio: bio.flatMap { $0 == profile.bio ? nil : $0 }
        )
    }

    /// The names of the fields present, in the profile's field order.
    public var fieldNames: [String] {
        [
            ("username", username != nil), ("email", email != nil), ("firstName", firstName != nil),
            ("lastName", lastName != nil), ("age", age != nil), ("bio", bio != nil),
        ].filter(\.1).map(\.0)
    }
}

// @MemberwiseInit
/// The outcome of an update: the profile as stored, and the fields that really changed.
public struct ProfileUpdate: Sendable, Equatable {
    /// The profile after the update.
    public var profile: Profile
    /// The names of the fields written, in a fixed order; empty when nothing differed and nothing was written.
    public var changed: [String]
}
