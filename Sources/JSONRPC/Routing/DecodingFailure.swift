/// Turns a `DecodingError` into field path → message, the shape of `data.fields`.
enum DecodingFailure {
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
