import Foundation
import TwitterCore

/// The password rules: 8 to 128 characters counted as Unicode code points after NFKC normalisation.
public enum PasswordPolicy {
    /// The longest password accepted: long enough for any passphrase, short enough to bound hashing input.
    public static let maximumLength = 128

    /// The rules as a validator; `minimumLength` comes from the configuration.
    public static func validator(minimumLength: Int) -> Validator<String> {
        Validator { password in
            let count = normalized(password).unicodeScalars.count
            if count < minimumLength {
                return [ValidationFailure("Password must be at least \(minimumLength) characters")]
            }
            if count > maximumLength {
                return [ValidationFailure("Password must be at most \(maximumLength) characters")]
            }
            return []
        }
    }

    /// NFKC: full-width, ligature and compatibility forms become their plain equivalents.
    public static func normalized(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// The normalised password's UTF-8 bytes, in a buffer the hasher wipes after use.
    static func normalizedBytes(_ password: String) -> [UInt8] {
        Array(normalized(password).utf8)
    }
}
