import ArgumentParser

/// sysexits(3) codes, the ones twctl uses.
enum ExitStatus {
    static let usage = ExitCode(64)
    static let data = ExitCode(65)
    static let unavailable = ExitCode(69)
    static let software = ExitCode(70)
    static let noPermission = ExitCode(77)

    /// The exit status for a JSON-RPC error code the daemon answered with.
    static func forErrorCode(_ code: Int) -> ExitCode {
        switch code {
        case -32602, -32004, -32005, -32600, -32700: data
        case -32001, -32002, -32003: noPermission
        case -32006, -32008: unavailable
        case -32601: usage
        default: software
        }
    }
}
