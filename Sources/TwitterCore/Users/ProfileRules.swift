/// The profile rules, declared once as values and worded as the seed app words them.
public enum ProfileRules {
    /// The most characters of a first or a last name: a name rides along in pages of other accounts' people, so it
    /// has a bound like every stored text.
    public static let maximumNameLength = 50

    /// One line of 2 to 50 characters.
    public static let firstName = FreeText.validator(
        "Firstname", allowsNewlines: false,
        length: Validator<String>.notEmpty("Firstname can not be empty")
            .and(.minimumLength(2, "Firstname is too short"))
            .and(.maximumLength(maximumNameLength, "Firstname is at most \(maximumNameLength) characters")))

    /// One line of 2 to 50 characters.
    public static let lastName = FreeText.validator(
        "Lastname", allowsNewlines: false,
        length: Validator<String>.notEmpty("Lastname can not be empty")
            .and(.minimumLength(2, "Lastname is too short"))
            .and(.maximumLength(maximumNameLength, "Lastname is at most \(maximumNameLength) characters")))

    /// 13 through 124, both accepted, as the message says.
    public static let age = Validator<Int>.range(13...124, "Must be older than 13 and younger than 124")

    /// At most 160 characters, in lines if the author likes.
    public static let bio = FreeText.validator(
        "Bio", allowsNewlines: true, length: .maximumLength(160, "Bio is at most 160 characters"))

    /// The patch with its free-text fields normalised (`FreeText.normalize`), as they are checked and stored.
    public static func normalize(_ patch: ProfilePatch) -> ProfilePatch {
        var patch = patch
        patch.firstName = patch.firstName.map(FreeText.normalize)
        patch.lastName = patch.lastName.map(FreeText.normalize)
        patch.bio = patch.bio.map(FreeText.normalize)
        return patch
    }

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
