import Foundation
import Testing
import TwitterCore
import TwitterTUI

/// Another account's text on the TUI's screen: a control character in it is drawn as a visible picture, never put
/// into a cell raw, where curses would hand it to the terminal (OSC 52 writes the clipboard, CSI moves the cursor).
@Suite struct ControlCharacterRenderTests {
    static let osc52 = "\u{1B}]52;c;cm0gLXJmIH4K\u{07}"
    static let csi = "\u{1B}[2K\u{1B}[1A\r"

    @Test func aTweetsControlCharactersAreDrawnAsPicturesNeverRaw() {
        let tweet = Fixture.tweet(1, by: "mallory", "copy \(Self.osc52) hide\(Self.csi) C1\u{9B}31m done")
        let grid = Renderer.render(Fixture.home([tweet]), width: 100, height: 24)
        let scalars = grid.cells.flatMap { $0.text.unicodeScalars }
        #expect(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "no cell holds one")
        #expect(grid.text.contains("copy ␛]52;c;cm0gLXJmIH4K␇ hide␛[2K␛[1A␍ C1�31m done"))
    }

    @Test func aProfilesNameAndBioAreDrawnVisiblyToo() {
        var grid = Grid(width: 40, height: 2)
        grid.put("Eve\u{1B}[8m", row: 0, column: 0)
        grid.put("bio\u{7F}\n", row: 1, column: 0)
        #expect(grid.text(ofRow: 0) == "Eve␛[8m")
        #expect(grid.text(ofRow: 1) == "bio␡␊")
    }

    @Test func visibleTextKeepsNewlinesOnlyWhenAskedAndOneScalarForOne() {
        let text = "a\u{1B}b\nc\u{85}"
        #expect(VisibleText.shown(text) == "a␛b␊c�")
        #expect(VisibleText.shown(text, keepingNewlines: true) == "a␛b\nc�")
        #expect(VisibleText.shown(text).unicodeScalars.count == text.unicodeScalars.count, "entity offsets hold")
        #expect(VisibleText.shown("plain é 👍") == "plain é 👍")
    }
}
