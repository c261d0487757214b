import Foundation
import TwitterServer

/// A folder of dated backups, for `twitterd backup --keep N` (the daily timer): names that sort by time, and
/// pruning of all but the newest.
struct BackupFolder {
    static let prefix = "twitterd-"
    static let suffix = ".sqlite"

    let path: String

    /// Makes the folder (0700: backups hold every password hash) when it is missing.
    init(path: String) throws {
        self.path = path
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw MaintenanceFailure("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// A new backup's path: `twitterd-20250102T030405.123Z.sqlite`, in UTC to the millisecond so names sort
    /// by time and two runs in one second do not collide.
    func newBackupPath(at date: Date = Date()) -> String {
        let seconds = date.timeIntervalSince1970
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let milliseconds = Int((seconds - seconds.rounded(.down)) * 1000)
        let stamp = String(
            format: "%04d%02d%02dT%02d%02d%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
        return "\(path)/\(Self.prefix)\(stamp)\(Self.suffix)"
    }

    /// Deletes every dated backup but the newest `count`, each with its token key, and returns their paths.
    /// Other files in the folder are left alone.
    func prune(keeping count: Int) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: path)
            .filter { $0.hasPrefix(Self.prefix) && $0.hasSuffix(Self.suffix) }
            .sorted()
        var removed: [String] = []
        for name in names.dropLast(count) {
            let backup = "\(path)/\(name)"
            guard unlink(backup) == 0 else {
                throw MaintenanceFailure("cannot remove \(backup): \(String(cString: strerror(errno)))")
            }
            unlink(backup + ".token.key")
            unlink(backup + ".messages.key")
            removed.append(backup)
        }
        return removed
    }
}
