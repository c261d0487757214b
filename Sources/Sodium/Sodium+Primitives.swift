import CSodium

extension Sodium {
    /// `count` bytes from the operating system's secure random source (`randombytes_buf`).
    public func randomBytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        NonNullBytes.withMutable(&bytes) { pointer, length in randombytes_buf(pointer, length) }
        return bytes
    }

    /// BLAKE2b (`crypto_generichash`) of `message`, keyed when `key` is given; `outputLength` is 16 to 64.
    public func genericHash(_ message: [UInt8], key: [UInt8]? = nil, outputLength: Int = 32) -> [UInt8] {
        let length = min(max(outputLength, Int(crypto_generichash_BYTES_MIN)), Int(crypto_generichash_BYTES_MAX))
        var output = [UInt8](repeating: 0, count: length)
        let keyBytes = key ?? []
        _ = NonNullBytes.withMutable(&output) { out, outCount in
            NonNullBytes.with(message) { input, inputCount in
                NonNullBytes.with(keyBytes) { keyPointer, keyCount in
                    crypto_generichash(
                        out, outCount, input, UInt64(inputCount), keyCount == 0 ? nil : keyPointer, keyCount
                    )
                }
            }
        }
        return output
    }

    /// Compares two byte strings in time that depends only on their length (`sodium_memcmp`).
    public func constantTimeEquals(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return NonNullBytes.with(left) { a, count in
            NonNullBytes.with(right) { b, _ in sodium_memcmp(a, b, count) == 0 }
        }
    }

    /// Overwrites `bytes` with zeros in a way the optimiser cannot skip (`sodium_memzero`).
    public func zero(_ bytes: inout [UInt8]) {
        NonNullBytes.withMutable(&bytes) { pointer, count in sodium_memzero(pointer, count) }
    }

    /// The key length for keyed BLAKE2b.
    public static var genericHashKeyLength: Int { Int(crypto_generichash_KEYBYTES) }
}
