import Foundation

/// What twctl needs to know about, and do with, the terminal.
enum Terminal {
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var usesColor: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// The terminal's width, 80 when it cannot be told.
    static var width: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 20 {
            return columns
        }
        return 80
    }

    /// Asks on stderr and reads one line from a terminal; with `secret`, echo is off while typing.
    static func prompt(_ question: String, secret: Bool = false) -> String? {
        FileHandle.standardError.write(Data(question.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if secret && hasTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if secret && hasTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        return readLine(strippingNewline: true)
    }

    /// Everything on standard input, without the final newline.
    static func readAllInput() -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// `text`, or everything on standard input when it is `-`.
    static func textOrStandardInput(_ text: String) -> String {
        text == "-" ? readAllInput() : text
    }

    static func bold(_ text: String) -> String { usesColor ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    static func dim(_ text: String) -> String { usesColor ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    static func red(_ text: String) -> String { usesColor ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
    /// A mention: bold blue.
    static func mention(_ text: String) -> String { usesColor ? "\u{1B}[1;34m\(text)\u{1B}[0m" : text }
    /// A hashtag: bold magenta.
    static func tag(_ text: String) -> String { usesColor ? "\u{1B}[1;35m\(text)\u{1B}[0m" : text }
}
