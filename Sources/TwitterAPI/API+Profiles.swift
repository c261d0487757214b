import Foundation
import JSONRPC
import TwitterCore

extension API.Profiles {
    // @MemberwiseInit
    /// `profile.get`'s params.
    public struct GetParams: Codable, Sendable {
        /// Whose profile; the caller's when nil.
        public var username: String?
    }

    // @MemberwiseInit
    /// The fields to change; nil leaves a field as it is.
    public struct UpdateParams: Codable, Sendable {
        /// A new first name, at least 2 characters.
        public var firstName: String?
        /// A new last name, at least 2 characters.
        public var lastName: String?
        /// A new e-mail address; needs currentPassword.
        public var email: String?
        /// A new age, 13 through 124.
        public var age: Int?
        /// A new username.
        public var username: String?
        /// A new bio, at most 160 characters.
        public var bio: String?
        /// Refuse the update unless the profile is at this version.
        public var expectedVersion: Int?
        /// Required to change the e-mail of an account with a password.
        public var currentPassword: String?
        /// Who may start writing to you: everyone, following (the people you follow) or nobody.
        public var messagesFrom: MessagesFrom?
        /// Whether your profile and tweets are on the public web pages (true until you say otherwise).
        public var webVisible: Bool?
    }

    /// The caller's own profile in full, or another user's public part.
    public enum ProfileResult: Codable, Sendable, Equatable {
        case own(Profile)
        case other(PublicProfile)

        /// Only the owner's view carries the e-mail.
        public init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: OwnProfile.CodingKeys.self)
            self = keys.contains(.email) ? .own(try Profile(from: decoder)) : .other(try PublicProfile(from: decoder))
        }

        /// Encodes every member; one without a value is written as null, never left out.
        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .own(let profile): try OwnProfile(profile).encode(to: encoder)
            case .other(let profile): try profile.encode(to: encoder)
            }
        }
    }

    // @MemberwiseInit
    /// `profile.update`'s answer: the profile as stored, and the fields written.
    public struct Updated: Codable, Sendable, Equatable {
        /// The profile as stored.
        public var profile: Profile
        /// The fields written; empty when nothing differed.
        public var changed: [String]

        enum CodingKeys: String, CodingKey { case profile, changed }

        /// Encodes every member; one without a value is written as null, never left out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(OwnProfile(profile), forKey: .profile)
            try container.encode(changed, forKey: .changed)
        }
    }

    /// The owner's view of a profile, with `age` always present (null until set).
    struct OwnProfile: Encodable {
        let profile: Profile

        init(_ profile: Profile) {
            self.profile = profile
        }

        enum CodingKeys: String, CodingKey {
            case username, email, firstName, lastName, age, bio, version, updatedAt, webVisible
        }

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
            try container.encode(profile.webVisible, forKey: .webVisible)
        }
    }

    static let profileSchema = Schema.object(
        [
            Property("username", .string(), required: true),
            Property("email", .string(format: "email"), required: true),
            Property("firstName", .string(), required: true),
            Property("lastName", .string(), required: true),
            Property("age", Schema.integer().orNull(), required: true),
            Property("bio", .string(), required: true),
            Property("version", .integer("Grows with every write; pass it back as expectedVersion."), required: true),
            Property("updatedAt", .timestamp(), required: true),
            Property(
                "webVisible", .boolean("Whether your profile and tweets are on the public web pages."), required: true),
        ], "The caller's own profile.", title: "Profile"
    )

    static let publicProfileSchema = Schema.object(
        [
            Property("username", .string(), required: true),
            Property("firstName", .string(), required: true),
            Property("lastName", .string(), required: true),
            Property("bio", .string(), required: true),
        ], "Another user's profile: no e-mail, no age.", title: "PublicProfile"
    )

    /// `profile.get`.
    public static let get = RPCMethod<GetParams, ProfileResult>(
        MethodDescriptor(
            "profile.get", summary: "Your profile, or another user's public profile by username.",
            params: [Property("username", .string("Whose profile; yours when absent."))],
            result: Schema(.oneOf([profileSchema, publicProfileSchema])), positional: true, errors: ["not_found"]
        ))

    /// `profile.update`.
    public static let update = RPCMethod<UpdateParams, Updated>(
        MethodDescriptor(
            "profile.update",
            summary: "Changes the given fields; writes only those that differ and reports them in changed.",
            params: [
                Property("firstName", .string("At least 2 characters.")),
                Property("lastName", .string("At least 2 characters.")),
                Property("email", .string("A valid address; needs currentPassword.", format: "email")),
                Property("age", .integer("13 through 124.")),
                Property("username", .string("^[A-Za-z0-9_]{1,15}$")),
                Property("bio", .string("At most 160 characters.")),
                Property("expectedVersion", .integer("Refuse the update unless the profile is at this version.")),
                Property(
                    "currentPassword", .string("Required to change the email of an account with a password.")),
                Property(
                    "messagesFrom",
                    .oneOfStrings(
                        MessagesFrom.allCases.map(\.rawValue),
                        "Who may start writing to you; following (the people you follow) by default.")),
                Property(
                    "webVisible",
                    .boolean(
                        "Whether your profile and tweets are on the public web pages (/@you); true by default.")),
            ],
            result: .object(
                [
                    Property("profile", profileSchema, required: true),
                    Property(
                        "changed", .array(of: .string(), "The fields written; empty when nothing differed."),
                        required: true),
                ], title: "ProfileUpdate"),
            errors: ["invalid_params", "conflict", "invalid_credentials"], rate: .profileUpdates
        ))
}
