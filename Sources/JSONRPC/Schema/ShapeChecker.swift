/// Checks a JSON value against a `Schema` and reports every mismatch by field path, not just the first.
public enum ShapeChecker {
    /// Checks the members of a params object against the method's params; returns field path → message.
    public static func check(params members: [String: JSONValue], against properties: [Property]) -> [String: String] {
        var failures: [String: String] = [:]
        checkObject(members, properties: properties, additional: false, path: "", failures: &failures)
        return failures
    }

    /// Checks one value; returns field path → message, empty when the value fits.
    public static func check(_ value: JSONValue, against schema: Schema, path: String) -> [String: String] {
        var failures: [String: String] = [:]
        check(value, schema, path: path, failures: &failures)
        return failures
    }

    private static func check(_ value: JSONValue, _ schema: Schema, path: String, failures: inout [String: String]) {
        let name = path.isEmpty ? "params" : path
        switch (schema.kind, value) {
        case (.any, _), (.null, .null), (.boolean, .bool):
            return
        case (.string, .string(let text)):
            if let allowed = schema.enumValues, !allowed.contains(text) {
                failures[name] = "must be one of: \(allowed.joined(separator: ", "))"
            }
        case (.integer, .number(let number)):
            guard number.isIntegral else {
                failures[name] = "expected an integer, found \(number.text)"
                return
            }
            guard let integer = number.int else {
                failures[name] = "\(number.text) is out of range"
                return
            }
            checkBounds(integer, schema, name: name, failures: &failures)
        case (.number, .number):
            return
        case (.array(let items), .array(let elements)):
            for (index, element) in elements.enumerated() {
                check(element, items, path: "\(name)[\(index)]", failures: &failures)
            }
        case (.object(let properties, let additional), .object(let members)):
            checkObject(members, properties: properties, additional: additional, path: path, failures: &failures)
        case (.oneOf(let choices), _):
            let fits = choices.contains { check(value, against: $0, path: path).isEmpty }
            if !fits { failures[name] = "does not match any allowed shape" }
        default:
            failures[name] = "expected \(expectedName(schema)), found \(value.typeName)"
        }
    }

    private static func checkObject(
        _ members: [String: JSONValue], properties: [Property], additional: Bool, path: String,
        failures: inout [String: String]
    ) {
        let prefix = path.isEmpty ? "" : path + "."
        var known = 0
        for property in properties {
            let member = members[property.name]
            if member != nil { known += 1 }
            if member == nil || member == .null {
                if property.isRequired { failures[prefix + property.name] = "is required" }
                continue
            }
            if let member { check(member, property.schema, path: prefix + property.name, failures: &failures) }
        }
        // Every member was a property (the usual case): no set of names to build for every request.
        guard !additional, known < members.count else { return }
        for key in members.keys where !properties.contains(where: { $0.name == key }) {
            failures[prefix + key] = "unknown field"
        }
    }

    private static func checkBounds(_ value: Int, _ schema: Schema, name: String, failures: inout [String: String]) {
        switch (schema.minimum, schema.maximum) {
        case (let low?, let high?) where value < low || value > high:
            failures[name] = "must be between \(low) and \(high)"
        case (let low?, nil) where value < low:
            failures[name] = "must be at least \(low)"
        case (nil, let high?) where value > high:
            failures[name] = "must be at most \(high)"
        default:
            return
        }
    }

    private static func expectedName(_ schema: Schema) -> String {
        switch schema.kind {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .null: "null"
        case .any: "any value"
        case .array: "array"
        case .object: "object"
        case .oneOf(let choices): choices.map(expectedName).joined(separator: " or ")
        }
    }
}
