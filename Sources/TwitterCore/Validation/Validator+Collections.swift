// SendableMetatype: the rules are @Sendable closures, which may only capture generic types whose metatypes
// cross threads.
extension Validator where Value: Collection & SendableMetatype {
    /// The number of elements is within `range`.
    public static func count(_ range: ClosedRange<Int>, _ message: String) -> Validator {
        rule(message) { range.contains($0.count) }
    }

    /// Every element passes `validator`; failures are named `[index]`.
    public static func each(_ validator: Validator<Value.Element>) -> Validator {
        Validator { collection in
            collection.enumerated().flatMap { index, element in
                validator.failures(for: element).map { $0.nested(under: "[\(index)]") }
            }
        }
    }
}

extension Validator {
    /// Every key passes `validator`; failures are named after the key.
    public static func keys<Key, Element>(_ validator: Validator<Key>) -> Validator
    where Value == [Key: Element], Key: SendableMetatype {
        Validator { dictionary in
            dictionary.keys.flatMap { key in
                validator.failures(for: key).map { $0.nested(under: "\(key)") }
            }
        }
    }

    /// Every value passes `validator`; failures are named after its key.
    public static func values<Key, Element>(_ validator: Validator<Element>) -> Validator
    where Value == [Key: Element], Key: SendableMetatype {
        Validator { dictionary in
            dictionary.flatMap { key, element in
                validator.failures(for: element).map { $0.nested(under: "\(key)") }
            }
        }
    }

    /// The value stored under `key` passes `validator` (a missing key is checked as nil).
    public static func entry<Key, Element>(_ key: Key, _ validator: Validator<Element?>) -> Validator
    where Value == [Key: Element], Key: Sendable {
        Validator { dictionary in
            validator.failures(for: dictionary[key]).map { $0.nested(under: "\(key)") }
        }
    }
}
