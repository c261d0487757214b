import GRDB
import TwitterCore

/// The fields of a patch whose values differ from the stored record: exactly what an update writes.
struct ProfileChanges {
    var firstName: String?
    var lastName: String?
    var email: String?
    var age: Int?
    var username: String?
    var bio: String?

    init(patch: ProfilePatch, stored: UserRecord) {
        firstName = patch.firstName.flatMap { $0 == stored.firstName ? nil : $0 }
        lastName = patch.lastName.flatMap { $0 == stored.lastName ? nil : $0 }
        email = patch.email.flatMap { $0 == stored.email ? nil : $0 }
        age = patch.age.flatMap { $0 == stored.age ? nil : $0 }
        username = patch.username.flatMap { $0 == stored.username ? nil : $0 }
        bio = patch.bio.flatMap { $0 == stored.bio ? nil : $0 }
    }

    /// The names of the changed fields, in the profile's field order.
    var names: [String] {
        [
            ("username", username != nil), ("email", email != nil), ("firstName", firstName != nil),
            ("lastName", lastName != nil), ("age", age != nil), ("bio", bio != nil),
        ].filter(\.1).map(\.0)
    }

    var isEmpty: Bool { names.isEmpty }

    func apply(to record: inout UserRecord) {
        if let firstName { record.firstName = firstName }
        if let lastName { record.lastName = lastName }
        if let email {
            record.email = email
            record.emailKey = UserRecord.key(email)
        }
        if let age { record.age = age }
        if let username {
            record.username = username
            record.usernameKey = UserRecord.key(username)
        }
        if let bio { record.bio = bio }
    }

    /// SET clauses for the changed columns only, so a concurrent edit of another column is never overwritten.
    var columnAssignments: [ColumnAssignment] {
        var assignments: [ColumnAssignment] = []
        if let firstName { assignments.append(Column("firstName").set(to: firstName)) }
        if let lastName { assignments.append(Column("lastName").set(to: lastName)) }
        if let email {
            assignments.append(Column("email").set(to: email))
            assignments.append(Column("emailKey").set(to: UserRecord.key(email)))
        }
        if let age { assignments.append(Column("age").set(to: age)) }
        if let username {
            assignments.append(Column("username").set(to: username))
            assignments.append(Column("usernameKey").set(to: UserRecord.key(username)))
        }
        if let bio { assignments.append(Column("bio").set(to: bio)) }
        return assignments
    }
}
