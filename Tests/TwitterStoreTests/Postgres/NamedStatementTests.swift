import Testing
import TwitterSQL

@testable import TwitterPostgres

/// PostgreSQL keeps 63 bytes of a prepared statement's name: two texts whose type names agree that far were one
/// statement, and the second counter's update ran the first's text.
struct NamedStatementTests {
    private protocol Column { static var name: String { get } }
    private enum AVeryLongColumnNameThatFillsTheNameOnItsOwnA: Column { static let name = "a" }
    private enum AVeryLongColumnNameThatFillsTheNameOnItsOwnB: Column { static let name = "b" }
    private enum Update<C: Column>: SQLText { static var sql: SQLQuery { "SELECT '\(unescaped: C.name)'" } }

    @Test func longNamesStayApartWithinPostgreSQLsLimit() {
        let first = NamedStatement<Update<AVeryLongColumnNameThatFillsTheNameOnItsOwnA>>.name
        let second = NamedStatement<Update<AVeryLongColumnNameThatFillsTheNameOnItsOwnB>>.name
        #expect(first != second)
        #expect(first.utf8.count <= 63 && second.utf8.count <= 63)
        #expect(String(first.prefix(46)) == String(second.prefix(46)))
    }

    @Test func aShortNameReadsAsItsType() {
        #expect(NamedStatement<Short>.name == "TwitterStoreTests.NamedStatementTests.Short")
    }

    enum Short: SQLText { static let sql: SQLQuery = "SELECT 1" }
}
