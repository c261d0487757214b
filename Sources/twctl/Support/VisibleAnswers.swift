import JSONRPC
import TwitterTUI

extension VisibleText {
    /// `value` with every string in it (not the members' names, which are the protocol's) shown as
    /// `shown(_:keepingNewlines:)` does, newlines kept for the texts printed in lines: what twctl makes of each
    /// line the daemon answers before it prints anything of it for people.
    static func shown(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(shown(text, keepingNewlines: true))
        case .array(let elements): .array(elements.map(shown))
        case .object(let members): .object(members.mapValues(shown))
        case .null, .bool, .number: value
        }
    }
}
