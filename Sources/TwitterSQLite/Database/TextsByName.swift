import Synchronization

/// SQL texts written once a process, each under the type that names its shape (a named query's `SQLText`, a
/// batch's `SQLBatchNaming`), for GRDB's statement cache to find by text.
final class TextsByName: Sendable {
    private let texts = Mutex<[ObjectIdentifier: String]>([:])

    /// The text `named` names, written by `write` the first time.
    func text(of named: Any.Type, _ write: () -> String) -> String {
        let key = ObjectIdentifier(named)
        if let known = texts.withLock({ $0[key] }) { return known }
        let text = write()
        texts.withLock { $0[key] = text }
        return text
    }
}
