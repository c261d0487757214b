import Sodium
import Testing

struct SodiumTests {
    @Test func passwordHashVerifiesOnlyTheSamePassword() throws {
        var password = Array("correct horse".utf8)
        let hash = try #require(Sodium.shared.hashPassword(&password, cost: .minimum))
        #expect(password.allSatisfy { $0 == 0 }, "the buffer is wiped after hashing")
        #expect(hash.hasPrefix("$argon2id$"))
        var right = Array("correct horse".utf8)
        var wrong = Array("correct horsf".utf8)
        #expect(Sodium.shared.verifyPassword(&right, hash: hash))
        #expect(!Sodium.shared.verifyPassword(&wrong, hash: hash))
        #expect(right.allSatisfy { $0 == 0 })
    }

    @Test func needsRehashWhenTheCostChanges() throws {
        var password = Array("password".utf8)
        let hash = try #require(Sodium.shared.hashPassword(&password, cost: .minimum))
        #expect(!Sodium.shared.needsRehash(hash, cost: .minimum))
        #expect(Sodium.shared.needsRehash(hash, cost: PasswordHashCost(operations: 2, memoryBytes: 16 << 20)))
    }

    @Test func randomBytesDifferAndHashesAreKeyed() {
        let first = Sodium.shared.randomBytes(count: 32)
        let second = Sodium.shared.randomBytes(count: 32)
        #expect(first.count == 32)
        #expect(first != second)
        let message = Array("token".utf8)
        let keyed = Sodium.shared.genericHash(message, key: first)
        #expect(keyed.count == 32)
        #expect(keyed != Sodium.shared.genericHash(message, key: second))
        #expect(keyed == Sodium.shared.genericHash(message, key: first))
    }

    @Test func constantTimeEquality() {
        #expect(Sodium.shared.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!Sodium.shared.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!Sodium.shared.constantTimeEquals([1, 2, 3], [1, 2]))
    }

    @Test func versionIsReported() {
        #expect(Sodium.shared.version.split(separator: ".").count == 3)
    }
}
