import CNCursesW
import Glibc

/// The signals the TUI cares about, and the terminal's rescue on a crash.
///
/// SIGWINCH, SIGINT, SIGTERM, SIGHUP and SIGCONT are written by their handler, as one byte, to a pipe the runner
/// reads in its event loop (the self-pipe trick: a handler may only do async-signal-safe things, and `write` is
/// one). A crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE) cannot wait for the loop: its handler
/// writes the terminal's own reset strings (terminfo's rmcup, cnorm, sgr0, fetched before any crash could
/// happen) and the saved tty modes back, then dies of the same signal.
enum TerminalSignals {
    /// The signals that reach the loop.
    static let forwarded = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGCONT]
    /// The signals of a crash.
    static let fatal = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// The pipe's read end, for the loop; -1 before `install`.
    static var readDescriptor: Int32 { pipeRead }

    /// Installs the forwarding handlers; returns false when the pipe cannot be made.
    static func install() -> Bool {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return false }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
        (pipeRead, pipeWrite) = (descriptors[0], descriptors[1])
        for signal in forwarded {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(TerminalSignals.pipeWrite, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
        return true
    }

    /// Remembers how to reset the terminal (call after curses started), then installs the crash handlers.
    static func armCrashRescue(savedModes: termios) {
        crashModes = savedModes
        var reset: [UInt8] = []
        for capability in ["rmcup", "cnorm", "sgr0"] {
            guard let value = tigetstr(capability), Int(bitPattern: value) != -1 else { continue }
            reset += Array(String(cString: value).utf8)
        }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(reset.count, 1))
        buffer.initialize(from: reset, count: reset.count)
        (crashReset, crashResetCount) = (buffer, reset.count)
        for signal in fatal {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if let reset = TerminalSignals.crashReset {
                    _ = write(STDOUT_FILENO, reset, TerminalSignals.crashResetCount)
                }
                _ = tcsetattr(STDIN_FILENO, TCSANOW, &TerminalSignals.crashModes)
                // SA_RESETHAND made the default action current again: the process dies of this signal.
                raise(number)
            }
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// The signal numbers waiting in the pipe.
    static func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let count = read(pipeRead, &buffer, buffer.count)
            guard count > 0 else { break }
            signals += buffer[0..<count].map { Int32($0) }
        }
        return signals
    }

    // Written once before the handlers that read them are installed, and never again: safe to read from a
    // signal handler, which is why they are plain globals and not behind a lock a handler could not take.
    private nonisolated(unsafe) static var pipeRead: Int32 = -1
    private nonisolated(unsafe) static var pipeWrite: Int32 = -1
    private nonisolated(unsafe) static var crashModes = termios()
    private nonisolated(unsafe) static var crashReset: UnsafeMutablePointer<UInt8>?
    private nonisolated(unsafe) static var crashResetCount = 0
}
