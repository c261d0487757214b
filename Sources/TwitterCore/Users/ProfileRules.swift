/// The profile rules, declared once as values and worded as the seed app words them.
public enum ProfileRules {
    /// At least 2 characters.
    public static let firstName = Validator<String>.notEmpty("Firstname can not be empty")
        .and(.minimumLength(2, "Firstname is too short"))

    /// At least 2 characters.
    public static let lastName = Validator<String>.notEmpty("Lastname can not be empty")
        .and(.minimumLength(2, "Lastname is too short"))

    /// 13 through 124, both accepted, as the message says.
    public static let age = Validator<Int>.range(13...124, "Must be older than 13 and younger than 124")

    /// At most 160 characters.
    public static let bio = Validator<String>.maximumLength(160, "Bio is at most 160 characters")

    /// Every present field of a patch checked at once; absent fields are left alone.
    public static let patch = Validator<ProfilePatch>.all([
        .field(\.firstName, "firstName", .ifPresent(firstName)),
        .field(\.lastName, "lastName", .ifPresent(lastName)),
        .field(\.email, "email", .ifPresent(AccountRules.email)),
        .field(\.age, "age", .ifPresent(age)),
        .field(\.username, "username", .ifPresent(AccountRules.username)),
        .field(\.bio, "bio", .ifPresent(bio)),
    ])
}
