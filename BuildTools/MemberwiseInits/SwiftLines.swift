/// A Swift source file read line by line as code, with comments taken out and braces counted outside string
/// literals: just enough of Swift's lexical rules to find declarations and the scopes they open, not a parser.
struct SwiftLines {
    /// One line of code.
    struct Line: Equatable {
        /// The line's number, from 1.
        var number: Int
        /// The line without its comments; string literals kept as written.
        var code: String
        /// The line as written, comments included.
        var text: String
        /// How many braces were open before the line began.
        var depth: Int
        /// The line's braces outside string literals and comments, in order.
        var braces: [Character]
    }

    private enum State {
        case code
        case string(raw: Int)
        case multilineString(raw: Int)
        case blockComment(nesting: Int)
    }

    /// Every line of `source`, in order.
    static func lines(of source: String) -> [Line] {
        var state = State.code
        var depth = 0
        var result: [Line] = []
        for (index, text) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let startDepth = depth
            var code = ""
            var braces: [Character] = []
            let chars = Array(text)
            var i = 0
            while i < chars.count {
                let c = chars[i]
                let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                switch state {
                case .blockComment(let nesting):
                    if c == "*" && next == "/" {
                        state = nesting == 1 ? .code : .blockComment(nesting: nesting - 1)
                        i += 2
                        continue
                    }
                    if c == "/" && next == "*" {
                        state = .blockComment(nesting: nesting + 1)
                        i += 2
                        continue
                    }
                    i += 1
                case .string(let raw), .multilineString(let raw):
                    let multiline: Bool
                    if case .multilineString = state { multiline = true } else { multiline = false }
                    code.append(c)
                    if c == "\\" && raw == 0, let next {
                        code.append(next)
                        i += 2
                        continue
                    }
                    let quotes = multiline ? 3 : 1
                    if c == "\"" && closes(chars, at: i, quotes: quotes, hashes: raw) {
                        code.append(contentsOf: String(repeating: "\"", count: quotes - 1))
                        code.append(contentsOf: String(repeating: "#", count: raw))
                        i += quotes + raw
                        state = .code
                        continue
                    }
                    i += 1
                case .code:
                    if c == "/" && next == "/" {
                        i = chars.count
                        continue
                    }
                    if c == "/" && next == "*" {
                        state = .blockComment(nesting: 1)
                        i += 2
                        continue
                    }
                    var hashes = 0
                    while i + hashes < chars.count && chars[i + hashes] == "#" { hashes += 1 }
                    if i + hashes < chars.count && chars[i + hashes] == "\"" {
                        let triple =
                            i + hashes + 2 < chars.count && chars[i + hashes + 1] == "\""
                            && chars[i + hashes + 2] == "\""
                        let opening = hashes + (triple ? 3 : 1)
                        code.append(contentsOf: chars[i..<(i + opening)])
                        i += opening
                        state = triple ? .multilineString(raw: hashes) : .string(raw: hashes)
                        continue
                    }
                    if c == "{" || c == "}" {
                        depth += c == "{" ? 1 : -1
                        braces.append(c)
                    }
                    code.append(c)
                    i += 1
                }
            }
            // A one-line string cannot run past its line; a stray quote must not swallow the file.
            if case .string = state { state = .code }
            result.append(Line(number: index + 1, code: code, text: String(text), depth: startDepth, braces: braces))
        }
        return result
    }

    /// Whether the quote at `index` closes a literal of `quotes` quotes and `hashes` hashes.
    private static func closes(_ chars: [Character], at index: Int, quotes: Int, hashes: Int) -> Bool {
        let end = index + quotes + hashes
        guard end <= chars.count else { return false }
        return chars[index..<(index + quotes)].allSatisfy { $0 == "\"" }
            && chars[(index + quotes)..<end].allSatisfy { $0 == "#" }
    }
}
