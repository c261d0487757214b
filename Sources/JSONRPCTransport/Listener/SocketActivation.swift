import Glibc

/// Socket activation without libsystemd: the listening socket systemd passes as fd 3 (sd_listen_fds).
public enum SocketActivation {
    /// The first descriptor systemd passes.
    static let firstDescriptor: Int32 = 3

    /// The inherited listener when LISTEN_PID names this process and LISTEN_FDS is at least 1, else nil.
    ///
    /// The variables are removed afterwards, as sd_listen_fds does, so child processes do not take the
    /// socket for theirs.
    public static func inheritedListener(environment: [String: String]) -> ListenerSource? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        let name = environment["LISTEN_FDNAMES"]?.split(separator: ":").first.map(String.init) ?? "systemd"
        _ = fcntl(firstDescriptor, F_SETFD, FD_CLOEXEC)
        return .inherited(descriptor: firstDescriptor, name: name)
    }
}
