/// Writes response objects as compact JSON with sorted keys, straight into a byte buffer.
///
/// Results arrive already encoded, so the envelope is assembled around them instead of being re-parsed.
public enum ResponseWriter {
    /// Appends `{"id":…,"jsonrpc":"2.0","result":…}` to `bytes`.
    public static func writeResult(_ encodedResult: [UInt8], id: RPCID, into bytes: inout [UInt8]) {
        writeResultHead(id: id, into: &bytes)
        bytes.append(contentsOf: encodedResult)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `{"id":…,"jsonrpc":"2.0","result":`, the envelope up to its result.
    public static func writeResultHead(id: RPCID, into bytes: inout [UInt8]) {
        bytes.append(literal: #"{"id":"#)
        id.jsonValue.write(into: &bytes)
        bytes.append(literal: #","jsonrpc":"2.0","result":"#)
    }

    /// Appends `{"error":{…},"id":…,"jsonrpc":"2.0"}` to `bytes`.
    public static func writeError(_ error: RPCError, id: RPCID, into bytes: inout [UInt8]) {
        bytes.append(literal: #"{"error":{"code":"#)
        bytes.append(utf8: String(error.code))
        bytes.append(literal: #","data":"#)
        error.data.write(into: &bytes)
        bytes.append(literal: #","message":"#)
        JSONValue.writeString(error.message, into: &bytes)
        bytes.append(literal: #"},"id":"#)
        id.jsonValue.write(into: &bytes)
        bytes.append(literal: #","jsonrpc":"2.0"}"#)
    }

    /// Appends a notification `{"jsonrpc":"2.0","method":…,"params":…}` to `bytes`.
    public static func writeNotification(method: String, encodedParams: [UInt8], into bytes: inout [UInt8]) {
        bytes.append(literal: #"{"jsonrpc":"2.0","method":"#)
        JSONValue.writeString(method, into: &bytes)
        bytes.append(literal: #","params":"#)
        bytes.append(contentsOf: encodedParams)
        bytes.append(UInt8(ascii: "}"))
    }
}
