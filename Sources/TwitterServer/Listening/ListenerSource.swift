/// Where the listening socket comes from: bound by the daemon, or handed over by systemd.
public enum ListenerSource: Sendable, CustomStringConvertible {
    /// Bind a new socket at this path (and remove it at exit).
    case bind(path: String)
    /// Adopt an already listening descriptor (socket activation); never unlink its path.
    case inherited(descriptor: Int32, name: String)

    /// The socket, for logs.
    public var description: String {
        switch self {
        case .bind(let path): path
        case .inherited(let descriptor, let name): "inherited fd \(descriptor) (\(name))"
        }
    }
}
