import GRDB
import TwitterCore

/// How a patch of changed fields lands in a `users` row.
extension ProfilePatch {
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
        if let firstName { assignments.append(Column("first_name").set(to: firstName)) }
        if let lastName { assignments.append(Column("last_name").set(to: lastName)) }
        if let email {
            assignments.append(Column("email").set(to: email))
            assignments.append(Column("email_key").set(to: UserRecord.key(email)))
        }
        if let age { assignments.append(Column("age").set(to: age)) }
        if let username {
            assignments.append(Column("username").set(to: username))
            assignments.append(Column("username_key").set(to: UserRecord.key(username)))
        }
        if let bio { assignments.append(Column("bio").set(to: bio)) }
        return assignments
    }
}
