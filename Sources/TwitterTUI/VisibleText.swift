/// Text another account wrote, made safe to show on a terminal: every control character becomes a visible one.
///
/// A terminal obeys what it prints: ESC starts a sequence that moves the cursor, hides or forges lines, or (OSC 52)
/// writes the clipboard; a carriage return overwrites the line. The daemon refuses control characters in what it
/// stores now, but older rows, a reason an admin's tools appended to, or another daemon may still hold them, so
/// the printing side never trusts the text either. Each control character is replaced by one scalar, its picture
/// from the Control Pictures block (ESC is `␛`, DEL `␡`), or `�` for the C1 controls, which have none: one
/// scalar for one keeps the scalar offsets of a tweet's entities right. twctl applies it to every answer it prints
/// for people (`VisibleText.shown(_: JSONValue)`) (not to --json, whose encoding escapes them anyway) and the TUI to every cell it draws.
public enum VisibleText {
    /// `text` with every control character shown as its picture; newlines kept when `keepingNewlines`.
    public static func shown(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0, keepingNewlines: keepingNewlines) }) else {
            return text
        }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            shown.append(isControl(scalar, keepingNewlines: keepingNewlines) ? picture(of: scalar) : scalar)
        }
        return String(shown)
    }

    /// C0 (but newline when kept), DEL and C1.
    static func isControl(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
        let value = scalar.value
        if value == 0x0A { return !keepingNewlines }
        return value < 0x20 || (0x7F...0x9F).contains(value)
    }

    /// The visible stand-in of a control character.
    static func picture(of scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = scalar.value
        let picture: UInt32 =
            switch value {
            case 0..<0x20: 0x2400 + value
            case 0x7F: 0x2421
            default: 0xFFFD
            }
        return Unicode.Scalar(picture) ?? "\u{FFFD}"
    }
}
