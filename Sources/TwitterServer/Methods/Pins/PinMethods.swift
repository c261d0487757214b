import JSONRPC
import TwitterAPI
import TwitterCore

/// `profile.pin` and `profile.unpin`: the caller's own pinned tweet, shown by `users.get` and `timeline.user`.
struct PinMethods: MethodGroup {
    let services: TweetServices

    func register(in router: inout Router<RequestContext>) {
        let pins = services.pins
        router.register(
            API.Profiles.pin, in: .loggedIn,
            { (params: API.Tweets.IDParams, context) in
                let reader = context.userID
                // A tweet the caller may not see is as if absent (-32004); one it sees but that is not its own, or
                // a repost, is the store's -32003 (`PinRule`).
                _ = try await services.access.tweet(params.id, for: reader)
                try await pins.pin(params.id, by: reader)
                return API.Profiles.Pinned(pinned: true, pinnedTweetId: params.id)
            })
        router.register(API.Profiles.unpin, in: .loggedIn) { _, context in
            let reader = context.userID
            _ = try await pins.unpin(by: reader)
            return API.Profiles.Pinned(pinned: false, pinnedTweetId: nil)
        }
    }
}
