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

    @Test(arguments: [
        ("\u{0}\u{0}", "Bio may not contain control characters other than newline"),
        ("tab\there", "Bio may not contain control characters other than newline"),
        ("bell\u{7}", "Bio may not contain control characters other than newline"),
        ("c1 \u{85} control", "Bio may not contain control characters other than newline"),
        ("two\nlines", nil),
        (String(repeating: "\u{1F44D}\u{1F3FD}", count: 80), nil),
        (
            String(repeating: "\u{1F44D}\u{1F3FD}", count: 81),
            "Bio is at most 160 characters (at most 640 bytes of UTF-8)"
        ),
        (
            "a" + String(repeating: "\u{301}", count: 200_000),
            "Bio is at most 160 characters (at most 640 bytes of UTF-8)"
        ),
        (String(repeating: "e\u{301}", count: 161), "Bio is at most 160 characters"),
    ])
    func bioIsFreeText(value: String, message: String?) {
        #expect(Self.fields(ProfileRules.normalize(ProfilePatch(bio: value)))["bio"] == message)
    }

    @Test(arguments: ["Al\nice", "Al\u{0}ice", "Al\u{1B}[31mice"])
    func namesAreOneLineWithoutControlCharacters(value: String) {
        let fields = Self.fields(ProfileRules.normalize(ProfilePatch(firstName: value, lastName: value)))
        #expect(fields["firstName"] == "Firstname may not contain control characters or line breaks")
        #expect(fields["lastName"] == "Lastname may not contain control characters or line breaks")
    }

    @Test func normalizingTrimsAndComposesTextFieldsOnly() {
        let patch = ProfileRules.normalize(
            ProfilePatch(firstName: "  E\u{301}lodie\n", lastName: "\u{A0}Bo ", email: " a@b.cd ", bio: "\t  hi \n"))
        #expect(patch.firstName == "\u{C9}lodie")
        #expect(patch.lastName == "Bo")
        #expect(patch.bio == "hi")
        #expect(patch.email == " a@b.cd ", "e-mail has its own rule")
        #expect(
            Self.fields(ProfileRules.normalize(ProfilePatch(firstName: "  A  ")))["firstName"]
                == "Firstname is too short")
    }
}
