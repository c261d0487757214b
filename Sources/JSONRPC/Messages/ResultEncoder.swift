import Foundation

/// Encodes results the one way every response uses: compact, sorted keys, RFC 3339 UTC timestamps.
public enum ResultEncoder {
    /// Encodes `value` as JSON bytes.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        // Fast paths for the results that need no encoder: ready JSON and plain strings ("pong").
        if let json = value as? JSONValue {
            var bytes: [UInt8] = []
            json.write(into: &bytes)
            return bytes
        }
        if let text = value as? String {
            var bytes: [UInt8] = []
            JSONValue.writeString(text, into: &bytes)
            return bytes
        }
        // A JSONEncoder per call: its configuration is fixed, and sharing one across threads would need a lock.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(from: date))
        }
        return Array(try encoder.encode(value))
    }
}
