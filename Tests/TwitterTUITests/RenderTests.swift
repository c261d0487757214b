import Foundation
import Testing
import TwitterCore
import TwitterTUI

/// The model drawn into a grid of cells, as the terminal would show it.
@Suite struct RenderTests {
    @Test func homeShowsTabsTweetsAndStatusLine() {
        let state = Fixture.home([Fixture.tweet(2, "second"), Fixture.tweet(1, by: "bob", "first")])
        let grid = Renderer.render(state, width: 80, height: 24)
        #expect(grid.text(ofRow: 0).hasPrefix(" 1 Home  2 Notifications  4 Search  5 Public"))
        #expect(grid.text.contains("> @alice · 3h · #2"))
        #expect(grid.text.contains("  @bob · 3h · #1"))
        #expect(grid.text.contains("1 like · 0 reposts · 2 replies"))
        #expect(grid.text(ofRow: 23).hasPrefix(" @alice · /run/twitterd.sock · j/k move"))
        #expect(grid[23, 0].style.contains(.reverse))
        // The selected tweet's header is reversed, the other one's is not.
        #expect(grid[2, 5].style.contains(.reverse))
        #expect(!grid[6, 5].style.contains(.reverse))
    }

    @Test func theMessagesTabShowsOnlyWhenTheDaemonHasMessages() {
        let without = Fixture.home([])
        #expect(!Renderer.render(without, width: 80, height: 24).text(ofRow: 0).contains("Messages"))
        var state = without
        #expect(state.handle(.character("3")).isEmpty)
        #expect(state.tab == .home)
        let with = Fixture.home([], capabilities: Capabilities(methods: ["messages.conversations"]))
        #expect(Renderer.render(with, width: 80, height: 24).text(ofRow: 0).contains("3 Messages"))
        var messages = with
        _ = messages.handle(.character("3"))
        #expect(messages.tab == .messages)
    }

    @Test func conversationsShowTheirPeopleLastMessageAndUnreadAndMoveUpWhenOneArrives() {
        var state = Fixture.home([], capabilities: Capabilities(methods: ["messages.conversations"]))
        _ = state.apply(
            .conversations([
                ConversationLine(
                    id: 1, people: ["bob"], lastSender: "bob", lastText: "lunch?", unread: 1,
                    updatedAt: Fixture.now),
                ConversationLine(id: 2, people: ["carol", "dave"], unread: 0, updatedAt: Fixture.now),
            ]))
        _ = state.handle(.character("3"))
        var grid = Renderer.render(state, width: 80, height: 24)
        #expect(grid.text(ofRow: 0).contains("3 Messages 1"))
        #expect(grid.text.split(separator: "\n").contains { $0.contains("@bob") && $0.contains("1 unread") })
        #expect(grid.text.split(separator: "\n").contains { $0.contains("@bob: lunch?") })
        #expect(grid.text.split(separator: "\n").contains { $0.contains("@carol, @dave") })
        // A message from dave moves his conversation to the top and counts; one's own counts nothing.
        _ = state.apply(.newMessage(conversation: 2, people: ["dave"], sender: "dave", text: "hi", at: Fixture.now))
        _ = state.apply(.newMessage(conversation: 1, people: ["bob"], sender: "alice", text: "yes", at: Fixture.now))
        #expect(state.lists[.messages]?.items.map(\.id) == [1, 2])
        #expect(state.unreadMessages == 2)
        grid = Renderer.render(state, width: 80, height: 24)
        #expect(grid.text.split(separator: "\n").contains { $0.contains("@alice: yes") })
    }

    @Test func bookmarksKeyOnlyWhenTheDaemonHasBookmarks() {
        var state = Fixture.home([Fixture.tweet(1)])
        #expect(state.handle(.character("b")).isEmpty)
        var with = Fixture.home([Fixture.tweet(1)], capabilities: Capabilities(methods: ["bookmarks.add"]))
        #expect(with.handle(.character("b")) == [.bookmark(1, true)])
        _ = with.apply(.bookmarked(1, true))
        #expect(Renderer.render(with, width: 80, height: 24).text.contains("bookmarked"))
    }

    @Test func wideAndCombiningTextWrapsByColumns() {
        let text = String(repeating: "字", count: 50) + " cafe\u{301} 😀"
        let state = Fixture.home([Fixture.tweet(1, text)])
        let grid = Renderer.render(state, width: 80, height: 24)
        // 50 wide characters are 100 columns: they cannot share the 75-column text line, they are cut.
        let first = grid.text(ofRow: 3)
        #expect(first.hasPrefix("    字"))
        #expect(DisplayWidth.of(first) <= 80)
        #expect(grid[3, 4].text == "字")
        #expect(grid[3, 5].text == "")  // the second half of a wide cell
        #expect(grid.text.contains("cafe\u{301} 😀"))
    }

    @Test func mentionsTagsAndLinksAreHighlighted() {
        let text = "hi @bob #swift https://example.com"
        let entities = TweetEntities(
            mentions: [.init(username: "bob", start: 3, end: 7)], hashtags: [.init(tag: "swift", start: 8, end: 14)],
            urls: [.init(url: "https://example.com", start: 15, end: 34)])
        let grid = Renderer.render(Fixture.home([Fixture.tweet(1, text, entities: entities)]), width: 80, height: 24)
        #expect(grid.text(ofRow: 3) == "    hi @bob #swift https://example.com")
        #expect(grid[3, 4].style == [])
        #expect(grid[3, 7].style == .mention)
        #expect(grid[3, 12].style == .tag)
        #expect(grid[3, 19].style == .link)
    }

    @Test func keysMoveAndOpen() {
        var state = Fixture.home([Fixture.tweet(3), Fixture.tweet(2), Fixture.tweet(1)])
        _ = state.handle(.character("j"))
        _ = state.handle(.down)
        #expect(state.currentList.selected == 2)
        _ = state.handle(.character("k"))
        #expect(state.currentList.selected == 1)
        _ = state.handle(.character("G"))
        #expect(state.currentList.selected == 2)
        _ = state.handle(.character("g"))
        #expect(state.currentList.selected == 0)
        #expect(state.handle(.enter) == [.loadThread(3)])
        _ = state.apply(
            .thread(
                focus: 3,
                [.tweet(Fixture.tweet(2), depth: 0), .tweet(Fixture.tweet(3, inReplyTo: 2), depth: 1, focus: true)]))
        let grid = Renderer.render(state, width: 80, height: 24)
        #expect(grid.text(ofRow: 1).hasPrefix(" Thread of #3"))
        #expect(grid.text.contains("> └ ▶ @alice · 3h · #3 · reply to #2"))
        _ = state.handle(.escape)
        #expect(state.pages.isEmpty)
        _ = state.handle(.character("q"))
        #expect(state.quitting)
    }

    @Test func newTweetsWaitAsNNewWhenScrolledAway() {
        var state = Fixture.home([Fixture.tweet(2), Fixture.tweet(1)])
        _ = state.apply(.newTweet(.home, Fixture.tweet(3)))
        #expect(state.currentList.items.first?.id == 3)  // at the top: shown at once
        _ = state.handle(.character("j"))
        _ = state.apply(.newTweet(.home, Fixture.tweet(4)))
        _ = state.apply(.newTweet(.home, Fixture.tweet(5)))
        #expect(state.currentList.items.first?.id == 3)
        #expect(state.currentList.selection?.id == 2)  // the list did not jump
        #expect(Renderer.render(state, width: 80, height: 24).text(ofRow: 1).contains("2 new · g to show"))
        _ = state.handle(.character("g"))
        #expect(state.currentList.items.map(\.id) == [5, 4, 3, 2, 1])
        #expect(state.currentList.selected == 0)
    }

    @Test func composeCountsGraphemesAndShowsTheRefusal() {
        var state = Fixture.home([])
        _ = state.handle(.character("n"))
        for character in "👍🏽 hi" { _ = state.handle(.character(character)) }
        var grid = Renderer.render(state, width: 80, height: 24)
        #expect(grid.text.contains("┌ New tweet"))
        #expect(grid.text.contains("─ 4/140"))
        state.capabilities.tweetLimit = 3
        grid = Renderer.render(state, width: 80, height: 24)
        let counter = grid.text(ofRow: 21)
        #expect(counter.hasSuffix("4/3"))
        let column = counter.count - 1
        #expect(grid[21, column].style.contains(.error))
        #expect(state.handle(.enter) == [.post(text: "👍🏽 hi", inReplyTo: nil)])
        _ = state.apply(.postRefused("text: Tweet is 4 characters; the limit is 3"))
        grid = Renderer.render(state, width: 80, height: 24)
        #expect(grid.text.contains("Tweet is 4 characters; the limit is 3"))
        _ = state.handle(.escape)
        #expect(state.editor == nil)
    }

    @Test func resizingRedrawsForTheNewSize() {
        let state = Fixture.home([Fixture.tweet(1, String(repeating: "word ", count: 30))])
        let narrow = Renderer.render(state, width: 80, height: 24)
        let wide = Renderer.render(state, width: 160, height: 40)
        #expect(narrow.text(ofRow: 23).hasPrefix(" @alice"))
        #expect(wide.text(ofRow: 39).hasPrefix(" @alice"))
        #expect(narrow.text(ofRow: 4).hasPrefix("    word"))  // wrapped onto a second line
        #expect(!wide.text(ofRow: 4).contains("word"))  // one line at 160 columns
    }

    @Test func disconnectionIsShown() {
        var state = Fixture.home([])
        _ = state.apply(.disconnected("connection closed"))
        #expect(Renderer.render(state, width: 80, height: 24).text(ofRow: 0).contains("daemon gone · reconnecting…"))
        let effects = state.apply(.connected(account: "alice", capabilities: Capabilities(methods: [])))
        #expect(effects.contains(.load(.home)))
        #expect(effects.contains(.load(.notifications)))
        #expect(!Renderer.render(state, width: 80, height: 24).text.contains("reconnecting"))
    }
}
