/// The rules for the fields every account has, shared by signup and profile edits.
public enum AccountRules {
    /// The username pattern: 1 to 15 ASCII letters, digits or underscores.
    public static let usernamePattern = "^[A-Za-z0-9_]{1,15}$"

    /// `^[A-Za-z0-9_]{1,15}$`.
    public static let username = Validator<String>.matches(
        usernamePattern, "Username must be 1 to 15 letters, digits or underscores"
    )

    /// At least 5 characters, a plausible address, at most 254 bytes.
    public static let email = Validator<String>.minimumLength(5, "Email is too short")
        .and(.rule("Email is at most 254 characters") { $0.utf8.count <= 254 })
        .and(.email("Email is not a valid address"))
}
