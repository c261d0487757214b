/// A small JSON Schema: enough to describe every param and result, check a request's shape, and write OpenRPC.
///
/// The router checks params against the same value that `rpc.discover` publishes, so the documentation cannot
/// drift from what the server accepts.
public struct Schema: Sendable {
    /// The JSON type and, for containers, what they hold.
    public indirect enum Kind: Sendable {
        case string
        case integer
        case number
        case boolean
        case null
        case any
        case array(Schema)
        case object([Property], additional: Bool)
        case oneOf([Schema])
    }

    /// The JSON type.
    public var kind: Kind
    /// What the value means.
    public var description: String?
    /// A JSON Schema format such as `date-time` or `email`.
    public var format: String?
    /// The smallest accepted integer or number.
    public var minimum: Int?
    /// The largest accepted integer or number.
    public var maximum: Int?
    /// The accepted string values, when the set is closed.
    public var enumValues: [String]?
    /// A title under which the schema is listed in the OpenRPC components.
    public var title: String?

    /// Creates a schema of `kind`.
    public init(
        _ kind: Kind, description: String? = nil, format: String? = nil, minimum: Int? = nil, maximum: Int? = nil,
        enumValues: [String]? = nil, title: String? = nil
    ) {
        self.kind = kind
        self.description = description
        self.format = format
        self.minimum = minimum
        self.maximum = maximum
        self.enumValues = enumValues
        self.title = title
    }
}

/// One named member of an object schema, or one param of a method.
public struct Property: Sendable {
    /// The member's name.
    public var name: String
    /// The member's schema.
    public var schema: Schema
    /// Whether the member must be present (and not null).
    public var isRequired: Bool

    /// Creates a property.
    public init(_ name: String, _ schema: Schema, required: Bool = false) {
        self.name = name
        self.schema = schema
        self.isRequired = required
    }
}

extension Schema {
    /// A string.
    public static func string(_ description: String? = nil, format: String? = nil) -> Schema {
        Schema(.string, description: description, format: format)
    }

    /// One of a closed set of strings.
    public static func oneOfStrings(_ values: [String], _ description: String? = nil) -> Schema {
        Schema(.string, description: description, enumValues: values)
    }

    /// An integer, optionally bounded.
    public static func integer(_ description: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> Schema {
        Schema(.integer, description: description, minimum: minimum, maximum: maximum)
    }

    /// A boolean.
    public static func boolean(_ description: String? = nil) -> Schema {
        Schema(.boolean, description: description)
    }

    /// An RFC 3339 UTC timestamp string.
    public static func timestamp(_ description: String? = nil) -> Schema {
        Schema(.string, description: description, format: "date-time")
    }

    /// An array whose elements all match `items`.
    public static func array(of items: Schema, _ description: String? = nil) -> Schema {
        Schema(.array(items), description: description)
    }

    /// An object with the given members and no others.
    public static func object(_ properties: [Property], _ description: String? = nil, title: String? = nil) -> Schema {
        Schema(.object(properties, additional: false), description: description, title: title)
    }

    /// An object whose members are not described, such as a provider's credentials.
    public static func freeObject(_ description: String? = nil) -> Schema {
        Schema(.object([], additional: true), description: description)
    }

    /// Any JSON value.
    public static func any(_ description: String? = nil) -> Schema {
        Schema(.any, description: description)
    }

    /// The same schema with `null` also accepted, for members that may be absent in a result.
    public func orNull() -> Schema {
        Schema(.oneOf([self, Schema(.null)]), description: description)
    }
}
