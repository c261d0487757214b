/// Plausible random people and tweets for demos and benchmarks, reproducible from a seed.
public struct RandomContent: Sendable {
    private var generator: SplitMix64

    /// Creates a generator; the same seed gives the same content.
    public init(seed: UInt64 = 0x7477_6974_7465_7264) {
        generator = SplitMix64(state: seed)
    }

    static let firstNames = [
        "Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Donald", "Edsger", "Frances", "Grace", "Guido",
        "Hedy", "Ivan", "John", "Ken", "Linus", "Margaret", "Niklaus", "Radia", "Rob", "Sophie", "Tim", "Vint",
        "Whitfield", "Yukihiro", "Zhang", "Katherine", "Leslie", "Lynn", "Marvin",
    ]
    static let lastNames = [
        "Lovelace", "Turing", "Liskov", "Kernighan", "Shannon", "Ritchie", "Knuth", "Dijkstra", "Allen", "Hopper",
        "Rossum", "Lamarr", "Sutherland", "McCarthy", "Thompson", "Torvalds", "Hamilton", "Wirth", "Perlman",
        "Pike", "Wilson", "Lee", "Cerf", "Diffie", "Matsumoto", "Lin", "Johnson", "Lamport", "Conway", "Minsky",
    ]
    static let words = [
        "shipping", "today", "coffee", "release", "daemon", "socket", "kernel", "weekend", "finally", "tests",
        "green", "build", "deploy", "rust", "swift", "linux", "systemd", "latency", "cache", "queue", "logs",
        "tiny", "fast", "again", "why", "works", "on", "my", "machine", "the", "a", "is", "new", "bug", "fixed",
        "reading", "about", "great", "talk", "benchmark", "numbers", "look", "good", "sqlite", "wal", "fsync",
        "morning", "rain", "train", "late", "🚀", "☕️", "🎉", "👩‍💻", "#swift", "#linux", "@here",
    ]

    /// The next number below `bound`.
    public mutating func below(_ bound: Int) -> Int {
        Int(generator.next() % UInt64(max(bound, 1)))
    }

    /// A number in [0, 1).
    public mutating func unit() -> Double {
        Double(generator.next() >> 11) / Double(1 << 53)
    }

    /// A first and last name.
    public mutating func name() -> (first: String, last: String) {
        (Self.firstNames[below(Self.firstNames.count)], Self.lastNames[below(Self.lastNames.count)])
    }

    /// A tweet of 3 to 20 words, cut to 140 characters.
    public mutating func tweet() -> String {
        let count = 3 + below(18)
        var text = ""
        for index in 0..<count {
            let word = Self.words[below(Self.words.count)]
            if text.count + word.count + 1 > 140 { break }
            text += (index == 0 ? "" : " ") + word
        }
        return text
    }
}

/// Picks accounts the way attention falls on a social network: the account of rank r is picked with weight
/// 1/r, so a few accounts get very many followers and most get few.
public struct PopularityPicker: Sendable {
    private let cumulative: [Double]

    /// A picker over `count` accounts, rank 0 the most popular.
    public init(count: Int) {
        var total = 0.0
        cumulative = (0..<max(count, 1)).map { rank in
            total += 1 / Double(rank + 1)
            return total
        }
    }

    /// The rank of the next account picked.
    public func pick(_ content: inout RandomContent) -> Int {
        let target = content.unit() * (cumulative.last ?? 1)
        var (low, high) = (0, cumulative.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A small, fast, seedable generator (SplitMix64); not for secrets.
struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
