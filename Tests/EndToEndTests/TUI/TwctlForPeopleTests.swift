import Foundation
import JSONRPC
import TestSupport
import Testing

/// twctl as a new user reads it (issue #37): help text wrapped once, plurals, dates for people; `--json` keeps
/// the raw values.
@Suite(.serialized) struct TwctlForPeopleTests {
    @Test func aProfileReadsAsEnglishAndJSONKeepsTheRawValues() async throws {
        let people = try await TUIPeople()
        try people.bob.post("just one")
        let shown = try people.alice.twctl(["user", "bob"])
        #expect(shown.output.contains("1 tweet · 0 followers · 0 following"), "\(shown.output)")
        #expect(shown.output.contains("joined \(DateFormatter.monthAndYear.string(from: Date()))"))
        let json = try people.alice.twctl(["--json", "user", "bob"])
        let user = try JSONParser().parse(json.output.trimmingCharacters(in: .whitespacesAndNewlines))
        guard case .number(let count)? = user["tweetsCount"] else {
            Issue.record("no tweetsCount in \(json.output)")
            return
        }
        #expect(count.text == "1")
        guard case .string(let created)? = user["createdAt"] else {
            Issue.record("no createdAt in \(json.output)")
            return
        }
        #expect(created.contains("T") && created.hasSuffix("Z"))  // the timestamp itself, not "November 2026"
    }

    @Test func theOverviewIsWrappedOnceNotTwice() throws {
        let help = try runProduct("twctl", ["--help"], environment: ["COLUMNS": "80"])
        let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("twctl stays logged in between runs") })
        let end = try #require(lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces).isEmpty })
        // A hard break inside the paragraph met by the parser's own wrapping leaves short lines mid-paragraph.
        for line in lines[start..<(end - 1)] {
            #expect(line.count > 50, "a ragged line in the overview: \"\(line)\"")
        }
    }
}
