/// Derives a username from an e-mail address when signup gives none: the local part's letters, digits and
/// underscores, cut to fit, with a number appended until it is free.
public enum UsernameSuggestion {
    /// The first free username derived from `email`; `isTaken` asks the store.
    public static func make(from email: String, isTaken: (String) async throws -> Bool) async throws -> String {
        let local = email.split(separator: "@").first.map(String.init) ?? ""
        var base = String(
            local.unicodeScalars.filter { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            }.map(Character.init))
        if base.isEmpty { base = "user" }
        base = String(base.prefix(15))
        if try await !isTaken(base) { return base }
        for number in 1...9999 {
            let suffix = String(number)
            let candidate = String(base.prefix(15 - suffix.count)) + suffix
            if try await !isTaken(candidate) { return candidate }
        }
        throw TwitterError(.conflict, "Could not find a free username; choose one", fields: ["username": "is required"])
    }
}
