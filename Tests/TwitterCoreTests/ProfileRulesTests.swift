import Testing
import TwitterCore

struct ProfileRulesTests {
    static func fields(_ patch: ProfilePatch) -> [String: String] {
        do {
            try ProfileRules.patch.validate(patch)
            return [:]
        } catch {
            return error.fields
        }
    }

    @Test(arguments: [
        ("", "Firstname can not be empty"), ("A", "Firstname is too short"), ("Al", nil), ("Élodie", nil),
    ])
    func firstName(value: String, message: String?) {
        #expect(Self.fields(ProfilePatch(firstName: value))["firstName"] == message)
    }

    @Test(arguments: [("", "Lastname can not be empty"), ("B", "Lastname is too short"), ("Bo", nil)])
    func lastName(value: String, message: String?) {
        #expect(Self.fields(ProfilePatch(lastName: value))["lastName"] == message)
    }

    @Test(arguments: [
        ("a@b", "Email is too short"), ("a@b.c", nil), ("nope@", "Email is not a valid address"),
        ("someone@example.com", nil),
    ])
    func email(value: String, message: String?) {
        #expect(Self.fields(ProfilePatch(email: value))["email"] == message)
    }

    @Test(arguments: [
        (12, "Must be older than 13 and younger than 124"), (13, nil), (124, nil),
        (125, "Must be older than 13 and younger than 124"),
    ])
    func age(value: Int, message: String?) {
        #expect(Self.fields(ProfilePatch(age: value))["age"] == message)
    }

    @Test(arguments: [
        (String(repeating: "b", count: 160), nil),
        (String(repeating: "b", count: 161), "Bio is at most 160 characters"),
    ])
    func bio(value: String, message: String?) {
        #expect(Self.fields(ProfilePatch(bio: value))["bio"] == message)
    }

    @Test func fourBadFieldsGetFourMessages() {
        let fields = Self.fields(ProfilePatch(firstName: "A", lastName: "B", email: "x", age: 200))
        #expect(fields.count == 4)
        #expect(fields["firstName"] == "Firstname is too short")
        #expect(fields["lastName"] == "Lastname is too short")
        #expect(fields["email"] == "Email is too short")
        #expect(fields["age"] == "Must be older than 13 and younger than 124")
    }

    @Test func absentFieldsAreNotChecked() {
        #expect(Self.fields(ProfilePatch()).isEmpty)
        #expect(Self.fields(ProfilePatch(bio: "")).isEmpty)
    }
}
