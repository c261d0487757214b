import ArgumentParser
import Foundation
import TwitterSQLite

/// `twitterd check`: SQLite's consistency checks, read-only, safe while the daemon serves.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the database's structure and references, read-only.",
        discussion: """
            Runs PRAGMA integrity_check (the file's pages, b-trees and indexes) and PRAGMA foreign_key_check \
            (rows whose account, tweet or other parent row is missing), prints what they find, and exits 1 when \
            either finds a problem. Safe while the daemon serves: it only reads, in one snapshot per check.
            """
    )

    @OptionGroup var options: DatabaseOptions

    /// Enough violations to see what is wrong, not so many that the verdict scrolls away.
    static let shownViolations = 20

    func run() throws {
        try reportingFailures {
            let databasePath = try options.databasePath()
            let file = try DatabaseFile.open(path: databasePath)
            defer { try? file.close() }
            print("checking \(databasePath)")
            var sound = true
            do {
                let findings = try file.integrityCheck()
                if findings == ["ok"] {
                    print("integrity_check: ok")
                } else {
                    sound = false
                    print("integrity_check: \(findings.count) problem\(findings.count == 1 ? "" : "s")")
                    for finding in findings { print("  \(finding)") }
                }
            } catch {
                // A file damaged where SQLite starts reading fails the check itself.
                sound = false
                print("integrity_check: cannot run: \(error)")
            }
            do {
                let violations = try file.foreignKeyViolations()
                if violations.isEmpty {
                    print("foreign_key_check: ok")
                } else {
                    sound = false
                    print(
                        "foreign_key_check: \(violations.count) row\(violations.count == 1 ? "" : "s") with a missing parent"
                    )
                    for violation in violations.prefix(Self.shownViolations) { print("  \(violation)") }
                    if violations.count > Self.shownViolations {
                        print("  and \(violations.count - Self.shownViolations) more")
                    }
                }
            } catch {
                sound = false
                print("foreign_key_check: cannot run: \(error)")
            }
            guard sound else { throw MaintenanceFailure("\(databasePath) has problems (above)") }
        }
    }
}
