import JSONRPC

/// Runs the parser and returns its error, or `nil` if parsing succeeded.
func parseError(_ bytes: [UInt8], parser: JSONParser = JSONParser()) -> JSONParseError? {
    do {
        _ = try parser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

/// Runs the decoder and returns the `DecodingError` it threw, or `nil` on success.
func decodingError<T: Decodable>(_ type: T.Type, from value: JSONValue) -> DecodingError? {
    do {
        _ = try JSONValueDecoder().decode(T.self, from: value)
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        return nil
    }
}

/// The coding path of a `DecodingError`, as string keys, for compact assertions.
func pathOf(_ error: DecodingError?) -> [String]? {
    guard let context = contextOf(error) else {
        return nil
    }
    return context.codingPath.map(\.stringValue)
}

/// The context of any `DecodingError` case.
func contextOf(_ error: DecodingError?) -> DecodingError.Context? {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
        .dataCorrupted(let context):
        return context
    default:
        return nil
    }
}
