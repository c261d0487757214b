import Glibc

/// Socket activation without libsystemd: the listening sockets systemd passes from fd 3 on (sd_listen_fds).
public enum SocketActivation {
    /// The first descriptor systemd passes.
    static let firstDescriptor: Int32 = 3
    /// The `FileDescriptorName=` of the HTTP socket unit (twitterd-http.socket).
    public static let httpName = "http"

    /// The sockets systemd passed: the RPC one, and the HTTP one when a socket named `http` came too.
    public struct Inherited: Sendable {
        /// The JSON-RPC socket; nil when systemd passed none.
        public var rpc: ListenerSource?
        /// The HTTP socket's descriptor.
        public var http: Int32?
    }

    /// The inherited listeners when LISTEN_PID names this process and LISTEN_FDS is at least 1: the one named
    /// `http` is the HTTP transport's, the first other one the RPC socket.
    ///
    /// The variables are removed afterwards, as sd_listen_fds does, so child processes do not take the
    /// sockets for theirs.
    public static func inheritedListeners(environment: [String: String]) -> Inherited {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return Inherited() }
        let names =
            environment["LISTEN_FDNAMES"]?.split(separator: ":", omittingEmptySubsequences: false)
            .map(String.init) ?? []
        var inherited = Inherited()
        for index in 0..<min(count, 16) {
            let descriptor = firstDescriptor + Int32(index)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let name = index < names.count && !names[index].isEmpty ? names[index] : "systemd"
            if name == httpName {
                inherited.http = inherited.http ?? descriptor
            } else if inherited.rpc == nil {
                inherited.rpc = .inherited(descriptor: descriptor, name: name)
            }
        }
        return inherited
    }
}
