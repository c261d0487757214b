/// Builds the OpenRPC 1.x document that `rpc.discover` returns, from the router's own descriptors.
public enum OpenRPCDocument {
    /// The OpenRPC version the document follows.
    public static let openRPCVersion = "1.3.2"

    /// The document for `methods`, with the service's title and version.
    public static func make(title: String, version: String, methods: [MethodDescriptor]) -> JSONValue {
        .object([
            "openrpc": .string(openRPCVersion),
            "info": .object(["title": .string(title), "version": .string(version)]),
            "methods": .array(methods.map(method)),
        ])
    }

    private static func method(_ descriptor: MethodDescriptor) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(descriptor.name),
            "summary": .string(descriptor.summary),
            "paramStructure": .string(descriptor.acceptsPositionalParams ? "either" : "by-name"),
            "params": .array(
                descriptor.params.map { property in
                    .object([
                        "name": .string(property.name),
                        "required": .bool(property.isRequired),
                        "schema": property.schema.jsonSchema,
                    ])
                }),
            "result": .object(["name": "result", "schema": descriptor.result.jsonSchema]),
            "x-authentication": .string(descriptor.access.name),
        ]
        if !descriptor.errors.isEmpty {
            members["x-errors"] = .array(descriptor.errors.map { .string($0) })
        }
        if let rate = descriptor.rate { members["x-rate"] = .string(rate) }
        return .object(members)
    }
}
