import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/instance`, `/api/v2/instance`, and what a client asks once and we answer as having none of:
/// preferences (the defaults), custom emojis and filters.
enum InstanceEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/instance") { request, caller in
            let instance = try await instance(request, caller)
            return .json { instance.writeV1(into: &$0) }
        },
        MastodonEndpoint("GET", "/api/v2/instance") { request, caller in
            let instance = try await instance(request, caller)
            return .json { instance.writeV2(into: &$0) }
        },
        MastodonEndpoint("GET", "/api/v1/preferences") { _, _ in
            .json(
                Array(
                    #"{"posting:default:visibility":"public","posting:default:sensitive":false,"posting:default:language":null,"reading:expand:media":"default","reading:expand:spoilers":false}"#
                        .utf8))
        },
        MastodonEndpoint("GET", "/api/v1/custom_emojis") { _, _ in .emptyArray },
        MastodonEndpoint("GET", "/api/v1/filters") { _, _ in .emptyArray },
        MastodonEndpoint("GET", "/api/v2/filters") { _, _ in .emptyArray },
    ]

    private static func instance(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonInstance
    {
        let limits = try await caller.call(API.System.limits)
        return MastodonInstance(origin: request.origin, maximumCharacters: limits.tweetMaximumLength)
    }
}
