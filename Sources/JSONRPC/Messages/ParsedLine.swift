/// What a line of input is, once parsed: one request, a batch, or an object that breaks the envelope rules.
enum ParsedLine {
    case request(RPCRequest)
    case batch([JSONValue])
    case invalid(EnvelopeError)
}

extension JSONParser {
    /// Parses a line as JSON-RPC: the usual single request is read straight from its bytes, anything else
    /// through the full parser and `RPCRequest.validate`, with the same outcome either way.
    func parseRequest(_ bytes: UnsafeRawBufferPointer) -> Result<ParsedLine, JSONParseError> {
        let envelope: RPCRequest? = bytes.withMemoryRebound(to: UInt8.self) { typed in
            var scanner = JSONScanner(bytes: typed, maximumDepth: maximumDepth)
            return scanner.scanEnvelope()
        }
        if let envelope { return .success(.request(envelope)) }
        do throws(JSONParseError) {
            switch try parse(bytes) {
            case .array(let members):
                return .success(.batch(members))
            case let value:
                switch RPCRequest.validate(value) {
                case .success(let request): return .success(.request(request))
                case .failure(let error): return .success(.invalid(error))
                }
            }
        } catch {
            return .failure(error)
        }
    }
}
