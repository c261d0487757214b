/// A strict RFC 8259 parser for untrusted input.
///
/// It accepts exactly one value surrounded by optional whitespace and rejects everything else,
/// including invalid UTF-8, duplicate keys and nesting beyond `maximumDepth`. Nesting is tracked on an
/// explicit stack, so hostile input such as 100,000 `[` cannot overflow the native stack.
public struct JSONParser: Sendable {
    /// The deepest allowed nesting of arrays and objects; a scalar at the top level has depth 0.
    ///
    /// Parsing itself never recurses, but destroying, comparing or writing a `JSONValue` does, so
    /// limits beyond a few thousand levels only move the stack risk to whoever uses the result.
    public let maximumDepth: Int

    /// Creates a parser that allows at most `maximumDepth` nested arrays and objects.
    public init(maximumDepth: Int = 64) {
        // A negative limit is meaningless; treating it as 0 still allows scalar documents.
        self.maximumDepth = max(0, maximumDepth)
    }

    /// Parses one JSON text from raw bytes.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        // Rebinding to UInt8 gives the scanner a typed buffer whose slices String(decoding:) copies directly.
        let result: Result<JSONValue, JSONParseError> = bytes.withMemoryRebound(to: UInt8.self) { typed in
            var scanner = JSONScanner(bytes: typed, maximumDepth: maximumDepth)
            do throws(JSONParseError) {
                return .success(try scanner.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON text from a byte array.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBytes { raw in
            do throws(JSONParseError) {
                return .success(try parse(raw))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON text from a string's UTF-8 encoding.
    public func parse(_ string: String) throws(JSONParseError) -> JSONValue {
        var contiguous = string
        let result: Result<JSONValue, JSONParseError> = contiguous.withUTF8 { utf8 in
            do throws(JSONParseError) {
                return .success(try parse(UnsafeRawBufferPointer(utf8)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
