// @MemberwiseInit
/// The kernel's word on who is at the other end of a Unix socket (SO_PEERCRED), read once at accept.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer process's effective user id.
    public var userID: UInt32
    /// The peer process's effective group id.
    public var groupID: UInt32
    /// The peer process id at connect time.
    public var processID: Int32

    /// `uid=1000 gid=1000 pid=4242`, for logs.
    public var description: String {
        "uid=\(userID) gid=\(groupID) pid=\(processID)"
    }
}
