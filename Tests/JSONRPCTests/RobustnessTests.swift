import JSONRPC
import Testing

@Suite("Robustness")
struct RobustnessTests {
    struct Request: Decodable {
        let jsonrpc: String
        let id: Int?
        let method: String
        let params: [String: Int]?
    }

    /// A tiny deterministic generator so failures reproduce without depending on system randomness.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    static let seeds: [[UInt8]] = [
        Array(#"{"jsonrpc":"2.0","id":1,"method":"list","params":{"limit":10}}"#.utf8),
        Array(#"["\ud83d\ude00","é",1.5e-3,-0,[{"a":[true,false,null]}],"\"\\\/\b"]"#.utf8),
        Array("[[[[[[[[[[[[1]]]]]]]]]]]]".utf8),
    ]

    /// Mutated inputs must only ever produce values or errors; anything parsed must round-trip.
    @Test(arguments: 0..<3)
    func mutatedInputsNeverCrash(seedIndex: Int) throws {
        var generator = SplitMix64(state: UInt64(seedIndex) &+ 1)
        let interesting: [UInt8] = [0x00, 0x22, 0x5C, 0x5B, 0x5D, 0x7B, 0x7D, 0x2C, 0x3A, 0x80, 0xC0, 0xED, 0xF4, 0xFF]
        let parser = JSONParser(maximumDepth: 8)
        for _ in 0..<3_000 {
            var bytes = Self.seeds[seedIndex]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                guard !bytes.isEmpty else {
                    break
                }
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    bytes[position] = interesting.randomElement(using: &generator) ?? 0
                case 1:
                    bytes.remove(at: position)
                case 2:
                    bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
                default:
                    bytes = Array(bytes[..<position])
                }
            }
            guard let value = try? parser.parse(bytes) else {
                continue
            }
            #expect(try parser.parse(value.serialized) == value)
            _ = try? JSONValueDecoder().decode(Request.self, from: value)
        }
    }
}
