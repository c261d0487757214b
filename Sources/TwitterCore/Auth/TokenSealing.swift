/// Makes token secrets and the form they are stored in. The crypto behind it belongs to a plugin; the core's
/// `SessionService` only asks.
public protocol TokenSealing: Sendable {
    /// A new random token of `kind`, in its text form.
    func makeToken(kind: TokenKind) -> String
    /// The kind of a well-formed token; nil for a malformed one, found without the database.
    func kind(of token: String) -> TokenKind?
    /// The stored form of a token: a keyed hash, so that a copy of the database alone cannot test guesses.
    func seal(_ token: String) -> [UInt8]
}
