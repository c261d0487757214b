/// Turns a `DecodingError` into field path → message, the shape of `data.fields`.
public enum DecodingFailure {
    /// Field path → message; `prefix` nests the paths under a member such as `credentials`.
    public static func fields(of error: DecodingError, prefix: String? = nil) -> [String: String] {
        let fields = fields(of: error)
        guard let prefix else { return fields }
        return Dictionary(
            uniqueKeysWithValues: fields.map { key, value in
                (key == "params" ? prefix : prefix + (key.hasPrefix("[") ? "" : ".") + key, value)
            })
    }

    static func fields(of error: DecodingError) -> [String: String] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return [path(context.codingPath): context.debugDescription]
        case .keyNotFound(let key, let context):
            return [path(context.codingPath + [key]): "is required"]
        @unknown default:
            return ["params": "could not be decoded"]
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.isEmpty ? "params" : text
    }
}
