import Glibc
import Logging

/// Process limits the daemon adjusts for itself at start-up.
enum ResourceLimits {
    /// Each connection is a file descriptor; the default soft limit of 1024 would cap the daemon far below its
    /// connection limit, so the soft limit is raised to the hard one, as most network daemons do.
    static func raiseOpenFileLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("raised the open file limit", metadata: ["limit": "\(limit.rlim_cur)"])
        }
    }
}
