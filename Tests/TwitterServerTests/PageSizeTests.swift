import JSONRPC
import Testing
import TwitterAPI

@testable import TwitterServer

/// The page sizes, declared once (`API.PageSize`): every method's `limit` schema is one of them, its text is the
/// protocol's as documented, and the handler serves the default the schema states.
struct PageSizeTests {
    static let sizes: [API.PageSize] = [.tweets, .people, .search, .messages, .tags]

    @Test(arguments: [
        (API.PageSize.tweets, "How many, 1 to 200; 20 when absent."),
        (API.PageSize.people, "How many, 1 to 200; 40 when absent."),
        (API.PageSize.search, "How many, 1 to 100; 20 when absent."),
        (API.PageSize.messages, "How many, 1 to 200; 50 when absent."),
        (API.PageSize.tags, "How many tags, 1 to 100; 10 when absent."),
    ])
    func theLimitSchemaSaysTheBoundsAndTheDefault(_ size: API.PageSize, _ text: String) {
        let limit = size.property
        #expect(limit.name == "limit" && !limit.isRequired)
        #expect(limit.schema.description == text)
        #expect(limit.schema.minimum == 1 && limit.schema.maximum == size.maximum)
        #expect(size.limit(nil) == size.whenAbsent && size.limit(7) == 7)
    }

    @Test func everyRoutedLimitIsOneOfThePageSizes() async throws {
        let descriptors = try await InProcessDaemon().processor.router.descriptors
        var limited = 0
        for descriptor in descriptors {
            guard let limit = descriptor.params.first(where: { $0.name == "limit" }) else { continue }
            limited += 1
            let declared = Self.sizes.contains {
                $0.property.schema.description == limit.schema.description && $0.maximum == limit.schema.maximum
            }
            #expect(declared, "\(descriptor.name)'s limit is declared outside API.PageSize")
        }
        #expect(limited >= 20, "the paged methods: \(limited)")
    }

    @Test func anAbsentLimitServesTheDefaultTheSchemaStates() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        for number in 0...API.PageSize.tweets.whenAbsent {
            _ = try await alice.call(API.Tweets.post, .init(text: "tweet \(number)"))
        }
        let page = try await alice.call(API.Timelines.user, .init(username: "alice"))
        #expect(page.tweets.count == API.PageSize.tweets.whenAbsent)
    }
}
