import CSodium

extension Sodium {
    /// The key length of XChaCha20-Poly1305 (`crypto_aead_xchacha20poly1305_ietf_KEYBYTES`).
    public static var aeadKeyLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES) }
    /// The nonce length of XChaCha20-Poly1305: 24 bytes, long enough to be drawn at random for every message.
    public static var aeadNonceLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES) }
    /// What sealing adds to a plaintext: the nonce and the 16-byte tag.
    public static var aeadOverhead: Int { aeadNonceLength + Int(crypto_aead_xchacha20poly1305_ietf_ABYTES) }

    /// Encrypts and authenticates `plaintext` under `key` with XChaCha20-Poly1305 and a fresh random nonce;
    /// returns the nonce followed by the ciphertext and its tag. `key` must be `aeadKeyLength` bytes. The tag also
    /// covers `associatedData`, which is not stored: `open` must be given the same bytes, so a sealed text opens
    /// only where it was sealed for.
    public func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = []) -> [UInt8] {
        precondition(key.count == Self.aeadKeyLength, "an XChaCha20-Poly1305 key is 32 bytes")
        let nonce = randomBytes(count: Self.aeadNonceLength)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_aead_xchacha20poly1305_ietf_ABYTES))
        var written: UInt64 = 0
        _ = NonNullBytes.withMutable(&ciphertext) { out, _ in
            NonNullBytes.with(plaintext) { input, inputCount in
                NonNullBytes.with(nonce) { noncePointer, _ in
                    NonNullBytes.with(key) { keyPointer, _ in
                        NonNullBytes.with(associatedData) { data, dataCount in
                            crypto_aead_xchacha20poly1305_ietf_encrypt(
                                out, &written, input, UInt64(inputCount), data, UInt64(dataCount), nil, noncePointer,
                                keyPointer)
                        }
                    }
                }
            }
        }
        return nonce + ciphertext.prefix(Int(written))
    }

    /// The plaintext of what `seal` made under `key` with `associatedData`; nil when it was sealed under another
    /// key or for other associated data, altered, or is too short to be a sealed text.
    public func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) -> [UInt8]? {
        guard key.count == Self.aeadKeyLength, sealed.count >= Self.aeadOverhead else { return nil }
        let nonce = Array(sealed.prefix(Self.aeadNonceLength))
        let ciphertext = Array(sealed.dropFirst(Self.aeadNonceLength))
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        var written: UInt64 = 0
        let status = NonNullBytes.withMutable(&plaintext) { out, _ in
            NonNullBytes.with(ciphertext) { input, inputCount in
                NonNullBytes.with(nonce) { noncePointer, _ in
                    NonNullBytes.with(key) { keyPointer, _ in
                        NonNullBytes.with(associatedData) { data, dataCount in
                            crypto_aead_xchacha20poly1305_ietf_decrypt(
                                out, &written, nil, input, UInt64(inputCount), data, UInt64(dataCount), noncePointer,
                                keyPointer)
                        }
                    }
                }
            }
        }
        guard status == 0 else { return nil }
        return Array(plaintext.prefix(Int(written)))
    }
}
