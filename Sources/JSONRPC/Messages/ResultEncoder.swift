import Foundation

/// Encodes results the one way every response uses: compact, sorted keys, RFC 3339 UTC timestamps.
public enum ResultEncoder {
    /// Encodes `value` as JSON bytes.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
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
