/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji two, combining
/// marks and other zero-width scalars none, everything else one. A grapheme cluster is as wide as its widest
/// base: `é` written as `e` and a combining accent is one column, a flag or a family emoji two.
public enum DisplayWidth {
    /// The columns `character` takes.
    public static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F, width == 1 { return 2 }  // VS16 asks for the emoji presentation
            width = max(width, of(scalar))
        }
        return width
    }

    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 || value == 0x200B || (0x200C...0x200F).contains(value) || (0x2060...0x2064).contains(value)
            || (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value)
        {
            return 0
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .control, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth (UAX #11) blocks, and the emoji blocks drawn two columns wide.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
