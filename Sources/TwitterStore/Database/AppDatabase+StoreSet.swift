import TwitterCore
import TwitterSQL

extension AppDatabase {
    /// Every store on this database, reporting committed changes to `observer`.
    public func stores(observer: any TweetCommitObserving) -> StoreSet {
        StoreSet(
            users: UserStore(database: self), profiles: ProfileStore(database: self),
            tokens: TokenStore(database: self), peerLinks: PeerLinkStore(database: self),
            throttle: ThrottleStore(database: self), tweets: TweetStore(database: self, observer: observer),
            follows: FollowStore(database: self, observer: observer),
            likes: LikeStore(database: self, observer: observer),
            bookmarks: BookmarkStore(database: self, observer: observer), pins: PinStore(database: self),
            lists: ListStore(database: self, observer: observer),
            relations: RelationStore(database: self, observer: observer),
            notifications: NotificationStore(database: self), search: SearchStore(database: self),
            moderation: ModerationStore(database: self, observer: observer),
            accounts: AccountStore(database: self, observer: observer), rateBuckets: RateBucketStore(database: self),
            messages: MessageStore(database: self), health: self)
    }
}
