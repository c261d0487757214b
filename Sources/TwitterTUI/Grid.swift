/// How a cell is drawn. The screen maps each to a terminal attribute; under NO_COLOR the colours drop out and
/// only bold, dim and reverse remain.
public struct CellStyle: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt16
    /// Creates a style from its bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bold.
    public static let bold = CellStyle(rawValue: 1 << 0)
    /// Dim: ages, counts, hints.
    public static let dim = CellStyle(rawValue: 1 << 1)
    /// Reverse video: the selection, the current tab, the status line.
    public static let reverse = CellStyle(rawValue: 1 << 2)
    /// A mention: bold blue, as twctl prints it.
    public static let mention = CellStyle(rawValue: 1 << 3)
    /// A hashtag: bold magenta, as twctl prints it.
    public static let tag = CellStyle(rawValue: 1 << 4)
    /// A link: underlined cyan.
    public static let link = CellStyle(rawValue: 1 << 5)
    /// An error or a count past the limit: red.
    public static let error = CellStyle(rawValue: 1 << 6)
    /// A badge or a notice ("3 new"): yellow.
    public static let notice = CellStyle(rawValue: 1 << 7)
}

/// One terminal cell: a grapheme cluster and its style. A cluster two columns wide fills its cell and marks the
/// next one as its continuation (empty text), as a terminal does.
public struct Cell: Sendable, Hashable {
    /// The cluster shown, "" in the second half of a wide one.
    public var text: String
    /// How it is drawn.
    public var style: CellStyle

    /// A blank cell.
    public static let blank = Cell(text: " ", style: [])
}

/// A screen's worth of cells: what the model draws and the screen copies to the terminal.
public struct Grid: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Row by row.
    public private(set) var cells: [Cell]

    /// A blank grid.
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at `row`, `column`.
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` from `column` on `row`, clipped at `limit` (the right edge by default); returns the column
    /// after it. A wide cluster that would straddle the limit is left out. A control character is drawn as its
    /// picture (`VisibleText`): every text on the screen comes through here, and a cell must never hold one the
    /// terminal would obey.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = [], limit: Int? = nil)
        -> Int
    {
        let end = min(limit ?? width, width)
        guard row >= 0, row < height else { return column }
        var column = column
        for character in VisibleText.shown(text) {
            let columns = DisplayWidth.of(character)
            if columns == 0 {
                // A cluster of zero width on its own (a stray mark): attach it to the cell before.
                if column > 0 { cells[row * width + column - 1].text.append(character) }
                continue
            }
            guard column + columns <= end else { break }
            cells[row * width + column] = Cell(text: String(character), style: style)
            if columns == 2 { cells[row * width + column + 1] = Cell(text: "", style: style) }
            column += columns
        }
        return column
    }

    /// Styled runs written one after another.
    @discardableResult
    public mutating func put(_ runs: [StyledRun], row: Int, column: Int, limit: Int? = nil) -> Int {
        var column = column
        for run in runs { column = put(run.text, row: row, column: column, style: run.style, limit: limit) }
        return column
    }

    /// Sets the style of `row` from `from` to the end, keeping the text (the selection bar).
    public mutating func addStyle(_ style: CellStyle, row: Int, from: Int = 0) {
        guard row >= 0, row < height else { return }
        for column in max(from, 0)..<width { cells[row * width + column].style.formUnion(style) }
    }

    /// The text of `row` as a terminal shows it, trailing blanks trimmed.
    public func text(ofRow row: Int) -> String {
        var line = ""
        for column in 0..<width { line += self[row, column].text }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }

    /// Every row's text, one a line: what `tmux capture-pane` shows of the same screen.
    public var text: String {
        (0..<height).map(text(ofRow:)).joined(separator: "\n")
    }
}

/// Text in one style.
public struct StyledRun: Sendable, Hashable {
    /// The text.
    public var text: String
    /// Its style.
    public var style: CellStyle

    /// A run of `text` in `style`.
    public init(_ text: String, _ style: CellStyle = []) {
        self.text = text
        self.style = style
    }
}
