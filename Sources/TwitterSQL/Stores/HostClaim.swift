import TwitterCore

// @MemberwiseInit
/// Hands the rows a uid names that were made before they were keyed by host to the host of the daemon that starts
/// first after the migration.
///
/// The migration cannot know the machine it runs for (it may run from `twitterd migrate` on any host), so it gives
/// those rows host "": peer links, signup buckets, and the login throttle's uid keys (written without a host). Each
/// daemon claims them at start-up for its own host before it serves; on a database shared by several hosts, the
/// first of them to start after the upgrade takes them all (docs/OPERATIONS.md says to upgrade the host whose uids
/// were linked first, or to link again). A row this host has already is left to it and the old one dropped.
public struct HostClaim: Sendable {
    let database: any SQLDatabase
    /// The identity of this daemon's machine.
    let host: String

    /// Claims every row of host "" for `host`, in one transaction, so two daemons starting at once do not split
    /// them.
    public func run() async throws {
        guard !host.isEmpty else { return }
        try await database.transaction { [host] connection in
            for table in ["peer_links", "signup_buckets"] {
                try await connection.run(
                    """
                    UPDATE \(unescaped: table) SET host = \(host) WHERE host = ''
                        AND NOT EXISTS (SELECT 1 FROM \(unescaped: table) AS mine WHERE mine.host = \(host)
                            AND mine.uid = \(unescaped: table).uid)
                    """)
                try await connection.run("DELETE FROM \(unescaped: table) WHERE host = ''")
            }
            // A uid key is "uid:N" or "account:E uid:N" without a host, "… host:H uid:N" with one.
            let prefix = "host:\(host) uid:"
            try await connection.run(
                """
                UPDATE login_throttles SET key = replace(key, 'uid:', \(prefix))
                WHERE (key LIKE 'uid:%' OR key LIKE 'account:% uid:%') AND key NOT LIKE '%host:%'
                    AND NOT EXISTS (SELECT 1 FROM login_throttles AS mine
                        WHERE mine.key = replace(login_throttles.key, 'uid:', \(prefix)))
                """)
            try await connection.run(
                """
                DELETE FROM login_throttles
                WHERE (key LIKE 'uid:%' OR key LIKE 'account:% uid:%') AND key NOT LIKE '%host:%'
                """)
        }
    }
}
