import Foundation
import GRDB
import Testing
import TwitterSQL

@testable import TwitterCore
@testable import TwitterSQLite

/// The stored date written by hand (`StoredDateText.text`) against GRDB's `DateFormatter` (`Date.databaseValue`),
/// the text every row written before it holds: the two must agree to the character, or old rows and new would
/// compare and sort apart.
struct StoredDateTextTests {
    /// What GRDB writes for `date`.
    private func grdb(_ date: Date) -> String? {
        String.fromDatabaseValue(date.databaseValue)
    }

    @Test func everyMillisecondEdgeIsRoundedAsGRDBRoundsIt() {
        // Half a millisecond goes up, just under it down; on either side of a second, a minute, a day and a year.
        let edges: [Double] = [0, 0.0004, 0.0005, 0.0006, 0.0009999, 0.9994, 0.9995, 59.9995, 86_399.9995]
        let bases: [Double] = [
            0, 951_782_400, 951_868_800, 4_107_456_000, 4_107_542_400, 1_795_000_000, 1_704_067_199,
            253_402_128_000,
        ]
        for base in bases {
            for edge in edges {
                let date = Date(timeIntervalSince1970: base + edge)
                #expect(StoredDateText.text(date) == grdb(date), "\(base + edge)")
            }
        }
    }

    @Test func everyDayOfFourCenturiesIsTheDayGRDBWrites() {
        // Leap days of 2000 and 2400 (divisible by 400), 2100 to 2300 (by 100 only) and every fourth year between.
        for day in stride(from: 0.0, to: 157_300, by: 1) {
            let date = Date(timeIntervalSince1970: day * 86_400 + 43_210.987)
            #expect(StoredDateText.text(date) == grdb(date), "day \(day)")
        }
    }

    @Test func randomTimesToTheYear9999AreWrittenAsGRDBWritesThem() {
        var generator = SplitMix64(state: 51)  // seeded: a failing time can be run again
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0..<253_402_300_800, using: &generator))
            #expect(StoredDateText.text(date) == grdb(date), "\(date.timeIntervalSince1970)")
        }
        for date in [Date(), .distantFuture] {
            #expect(StoredDateText.text(date) == grdb(date))
        }
    }

    @Test func datesBefore1970OrFromTheYear10000AreLeftToGRDB() {
        #expect(StoredDateText.text(Date(timeIntervalSince1970: -0.001)) == nil)
        #expect(StoredDateText.text(Date(timeIntervalSince1970: -0.0004)) == "1970-01-01 00:00:00.000")
        #expect(StoredDateText.text(Date(timeIntervalSince1970: 253_402_300_799.999)) == "9999-12-31 23:59:59.999")
        #expect(StoredDateText.text(Date(timeIntervalSince1970: 253_402_300_800)) == nil)
        #expect(StoredDateText.text(.distantPast) == nil)
        #expect(StoredDateText.text(Date(timeIntervalSince1970: 1e15)) == nil)
        // What the connection binds for them is GRDB's own text.
        for date in [Date(timeIntervalSince1970: -86_400 * 400), .distantPast, Date(timeIntervalSince1970: 1e15)] {
            #expect(SQLValue.date(date).databaseValue == date.databaseValue)
        }
    }

    @Test func aWrittenDateReadsBackToTheMillisecond() throws {
        for seconds in [0, 1_795_000_000.123, 951_868_799.9994, 4_107_542_400.5] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = try #require(StoredDateText.text(date))
            let read = try Date(sqlValue: .text(text))
            #expect(abs(read.timeIntervalSince1970 - seconds) <= 0.0005, "\(text)")
        }
    }
}
