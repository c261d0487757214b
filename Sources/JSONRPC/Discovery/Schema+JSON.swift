extension Schema {
    /// The schema as a JSON Schema object, the form OpenRPC documents embed.
    public var jsonSchema: JSONValue {
        var members: [String: JSONValue] = [:]
        switch kind {
        case .string: members["type"] = "string"
        case .integer: members["type"] = "integer"
        case .number: members["type"] = "number"
        case .boolean: members["type"] = "boolean"
        case .null: members["type"] = "null"
        case .any: break
        case .array(let items):
            members["type"] = "array"
            members["items"] = items.jsonSchema
        case .object(let properties, let additional):
            members["type"] = "object"
            members["properties"] = .object(
                Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.schema.jsonSchema) })
            )
            let required = properties.filter(\.isRequired).map { JSONValue.string($0.name) }
            if !required.isEmpty { members["required"] = .array(required) }
            members["additionalProperties"] = .bool(additional)
        case .oneOf(let choices):
            members["oneOf"] = .array(choices.map(\.jsonSchema))
        }
        if let description { members["description"] = .string(description) }
        if let format { members["format"] = .string(format) }
        if let minimum { members["minimum"] = .number(JSONNumber(minimum)) }
        if let maximum { members["maximum"] = .number(JSONNumber(maximum)) }
        if let enumValues { members["enum"] = .array(enumValues.map { .string($0) }) }
        if let title { members["title"] = .string(title) }
        return .object(members)
    }
}
