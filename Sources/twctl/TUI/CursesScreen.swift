import CNCursesW
import Glibc
import TwitterTUI

/// The terminal through ncursesw: draws a grid of cells, reads keys, follows the window's size. Everything
/// about escape codes is terminfo's business; this type only maps cell styles to curses attributes.
@MainActor
final class CursesScreen {
    /// Whether colours are used: not under NO_COLOR, not on a terminal without them.
    let usesColor: Bool
    private(set) var width: Int
    private(set) var height: Int

    /// Takes over the terminal: the alternate screen, raw keys (Ctrl-C is a key), no echo, no cursor.
    init(noColor: Bool) {
        setlocale(LC_ALL, "")
        // ncurses puts its own SIGWINCH handler in only where the handler is the default one; the runner's is
        // installed first, so resizing reaches the model through the same loop as every other event.
        initscr()
        raw()
        noecho()
        nonl()
        keypad(twtui_stdscr(), true)
        nodelay(twtui_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        if !noColor && has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_BLUE), -1)
            init_pair(2, Int16(COLOR_MAGENTA), -1)
            init_pair(3, Int16(COLOR_CYAN), -1)
            init_pair(4, Int16(COLOR_RED), -1)
            init_pair(5, Int16(COLOR_YELLOW), -1)
            usesColor = true
        } else {
            usesColor = false
        }
        width = Int(getmaxx(twtui_stdscr()))
        height = Int(getmaxy(twtui_stdscr()))
    }

    /// Gives the terminal back as it was found: modes, the main screen, the cursor.
    func end() {
        endwin()
    }

    /// Follows a new window size (after SIGWINCH).
    func resize() {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
            resizeterm(Int32(size.ws_row), Int32(size.ws_col))
        }
        width = Int(getmaxx(twtui_stdscr()))
        height = Int(getmaxy(twtui_stdscr()))
        clearok(twtui_stdscr(), true)
    }

    /// Copies `grid` to the terminal; curses sends only what changed.
    func draw(_ grid: Grid) {
        for row in 0..<min(grid.height, height) {
            move(Int32(row), 0)
            var column = 0
            while column < min(grid.width, width) {
                let cell = grid[row, column]
                column += 1
                if cell.text.isEmpty { continue }  // the second half of a wide cluster
                attrset(Int32(attributes(cell.style)))
                addstr(cell.text)
            }
        }
        attrset(0)
        refresh()
    }

    /// The keys typed so far, without waiting.
    func readKeys() -> [Key] {
        var keys: [Key] = []
        while true {
            var code: UInt32 = 0
            let result = twtui_get_wch(&code)
            if result == ERR { break }
            if result == twtui_key_code_yes() {
                if let key = Self.functionKey(Int32(code)) { keys.append(key) }
                continue
            }
            switch code {
            case 3: keys.append(.interrupt)
            case 13, 10: keys.append(.enter)
            case 27: keys.append(.escape)
            case 8, 127: keys.append(.backspace)
            case 0..<32: break
            default:
                if let scalar = Unicode.Scalar(code) { keys.append(.character(Character(scalar))) }
            }
        }
        return Self.joiningMarks(keys)
    }

    /// A combining mark typed after a letter is part of that letter's character.
    private static func joiningMarks(_ keys: [Key]) -> [Key] {
        var joined: [Key] = []
        for key in keys {
            if case .character(let mark) = key, DisplayWidth.of(mark) == 0, case .character(let base)? = joined.last {
                joined[joined.count - 1] = .character(Character(String(base) + String(mark)))
            } else {
                joined.append(key)
            }
        }
        return joined
    }

    private static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_ENTER: .enter
        case KEY_BACKSPACE, KEY_DC: .backspace
        default: nil
        }
    }

    private func attributes(_ style: CellStyle) -> Int32 {
        var attributes: Int32 = 0
        if style.contains(.bold) { attributes |= twtui_attr_bold() }
        if style.contains(.dim) { attributes |= twtui_attr_dim() }
        if style.contains(.reverse) { attributes |= twtui_attr_reverse() }
        let colored: [(CellStyle, Int16, Int32)] = [
            (.mention, 1, twtui_attr_bold()), (.tag, 2, twtui_attr_bold()), (.link, 3, twtui_attr_underline()),
            (.error, 4, twtui_attr_bold()), (.notice, 5, 0),
        ]
        for (kind, pair, fallback) in colored where style.contains(kind) {
            attributes |= usesColor ? twtui_color_pair(pair) | (kind == .link ? fallback : 0) : fallback
            if kind == .mention || kind == .tag { attributes |= twtui_attr_bold() }
        }
        return attributes
    }
}
