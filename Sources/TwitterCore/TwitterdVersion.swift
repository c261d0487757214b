/// The daemon's version strings, reported by `system.version` and `--version`.
public enum TwitterdVersion {
    /// twitterd's release version.
    public static let current = "0.1.0"
    /// The wire protocol's version; it changes only when a change would break an existing client.
    public static let protocolVersion = "1"

    /// The Swift compiler that built this binary.
    public static var swift: String {
        #if compiler(>=6.4)
            "6.4 or later"
        #elseif compiler(>=6.3)
            "6.3"
        #elseif compiler(>=6.2)
            "6.2"
        #else
            "6.1 or earlier"
        #endif
    }
}
