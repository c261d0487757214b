/// A `LIKE` pattern's pieces.
public enum SQLPattern {
    /// `text` with `LIKE`'s wildcards and the escape character escaped, for `ESCAPE '\'`.
    public static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
