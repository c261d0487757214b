/// libsodium's headers declare every buffer non-null, even when its length is zero; Swift gives a nil base
/// address for an empty array. This hands libsodium a one-byte buffer with length zero instead.
enum NonNullBytes {
    static func with<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        let storage = bytes.isEmpty ? [0] : bytes
        return storage.withUnsafeBufferPointer { buffer in
            // A non-empty array always has storage; this cannot fail whatever the input.
            guard let base = buffer.baseAddress else { preconditionFailure("non-empty array without storage") }
            return body(base, bytes.count)
        }
    }

    static func withMutable<R>(_ bytes: inout [UInt8], _ body: (UnsafeMutablePointer<UInt8>, Int) -> R) -> R {
        let count = bytes.count
        if bytes.isEmpty {
            var scratch: [UInt8] = [0]
            return withMutable(&scratch) { pointer, _ in body(pointer, 0) }
        }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { preconditionFailure("non-empty array without storage") }
            return body(base, count)
        }
    }
}
