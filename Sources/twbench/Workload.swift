import ArgumentParser
import NIOCore

/// What a benchmark connection sends, and how each answer is checked: a wrong or error answer is an error,
/// never a success.
enum Workload: String, ExpressibleByArgument, CaseIterable, Sendable {
    case ping, fetch, post, login, mix, home, search
    /// `messages.send` into one conversation (seed1 to seed2), and `messages.list` of it.
    case dmsend, dmlist

    /// Whether connections must log in before the load starts.
    var needsLogin: Bool { self != .ping && self != .login }

    /// Whether each connection logs in as an account of its own (seed1, seed2…), as home timelines need.
    var needsOwnAccount: Bool { self == .home }

    /// The request line for the `sequence`-th request of a connection.
    func request(_ sequence: Int, account: Int, conversation: Int64 = 0) -> Request {
        switch self {
        case .ping: Request.ping
        case .fetch: Request.fetch
        case .post: Request.post(sequence)
        case .login: Request.login(account: account)
        // Nine fetches, then one post: the 90/10 mix of a read-heavy service.
        case .mix: sequence % 10 == 9 ? Request.post(sequence) : Request.fetch
        case .home: Request.home
        case .search: Request.search
        case .dmsend: Request.sendMessage(sequence, conversation: conversation)
        case .dmlist: Request.listMessages(conversation: conversation)
        }
    }
}

/// One request line and the prefix its answer must start with.
///
/// A class holding a ready buffer: every request in flight is remembered and every line is written, and
/// copying two arrays (and allocating a buffer) per request made twbench cost as much as the server.
final class Request: Sendable {
    let line: ByteBuffer
    let expectedPrefix: [UInt8]
    let expectsWholeLine: Bool

    init(line: [UInt8], expectedPrefix: [UInt8], expectsWholeLine: Bool) {
        self.line = ByteBuffer(bytes: line)
        self.expectedPrefix = expectedPrefix
        self.expectsWholeLine = expectsWholeLine
    }

    static let ping = Request(
        line: Array(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"#.utf8 + [10]),
        expectedPrefix: Array(#"{"id":1,"jsonrpc":"2.0","result":"pong"}"#.utf8), expectsWholeLine: true
    )

    static let fetch = Request(
        line: Array(#"{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":2}"#.utf8 + [10]),
        expectedPrefix: Array(#"{"id":2,"jsonrpc":"2.0","result":{"newestId":"#.utf8), expectsWholeLine: false
    )

    static let home = Request(
        line: Array(#"{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":6}"#.utf8 + [10]),
        expectedPrefix: Array(#"{"id":6,"jsonrpc":"2.0","result":{"newestId":"#.utf8), expectsWholeLine: false
    )

    /// Two words of the seeded vocabulary, each in about a fifth of the bench database's tweets: a query
    /// with tens of thousands of matches to rank, not a rare word.
    static let search = Request(
        line: Array(
            #"{"jsonrpc":"2.0","method":"search.tweets","params":{"query":"coffee kernel","limit":20},"id":7}"#.utf8
                + [10]),
        expectedPrefix: Array(#"{"id":7,"jsonrpc":"2.0","result":{"nextCursor":"#.utf8), expectsWholeLine: false
    )

    static func post(_ sequence: Int) -> Request {
        Request(
            line: Array(
                #"{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"twbench post \#(sequence)"},"id":3}"#.utf8
                    + [10]),
            expectedPrefix: Array(#"{"id":3,"jsonrpc":"2.0","result":{"author":"#.utf8), expectsWholeLine: false
        )
    }

    static func sendMessage(_ sequence: Int, conversation: Int64) -> Request {
        Request(
            line: Array(
                #"{"jsonrpc":"2.0","method":"messages.send","params":{"conversationId":\#(conversation),"text":"twbench message \#(sequence)"},"id":8}"#
                    .utf8 + [10]),
            expectedPrefix: Array(#"{"id":8,"jsonrpc":"2.0","result":{"conversationId":"#.utf8), expectsWholeLine: false
        )
    }

    static func listMessages(conversation: Int64) -> Request {
        Request(
            line: Array(
                #"{"jsonrpc":"2.0","method":"messages.list","params":{"conversationId":\#(conversation),"limit":20},"id":9}"#
                    .utf8 + [10]),
            expectedPrefix: Array(#"{"id":9,"jsonrpc":"2.0","result":{"messages":["#.utf8), expectsWholeLine: false
        )
    }

    static func login(account: Int) -> Request {
        let credentials = #"{"email":"seed\#(account)@example.com","password":"seed-password"}"#
        return Request(
            line: Array(
                #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"password","credentials":\#(credentials)},"id":4}"#
                    .utf8 + [10]),
            expectedPrefix: Array(#"{"id":4,"jsonrpc":"2.0","result":{"session":"#.utf8), expectsWholeLine: false
        )
    }

    static func tokenLogin(_ token: String) -> Request {
        Request(
            line: Array(
                #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":5}"#
                    .utf8 + [10]),
            expectedPrefix: Array(#"{"id":5,"jsonrpc":"2.0","result":{"session":"#.utf8), expectsWholeLine: false
        )
    }

    /// True when `answer` is what this request must get.
    func accepts(_ answer: some Collection<UInt8>) -> Bool {
        if expectsWholeLine { return answer.elementsEqual(expectedPrefix) }
        return answer.count >= expectedPrefix.count && answer.prefix(expectedPrefix.count).elementsEqual(expectedPrefix)
    }
}
