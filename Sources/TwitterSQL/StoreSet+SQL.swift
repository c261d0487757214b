import TwitterCore

extension StoreSet {
    /// Every store on `database`, written once, reporting committed changes to `observer`; what the database does
    /// its own way is handed in: how posts commit, search, its health and the other daemons on it. `host` names
    /// this daemon's machine, whose uids the stores of uid-keyed rows read and write (`HostIdentity`); "" for a
    /// database no other machine shares (tests, tools).
    public init(
        on database: any SQLDatabase, committer: any PostCommitting, observer: any CommitObserving,
        search: any TweetSearching, health: any HealthChecking,
        otherDaemons: any OtherDaemons = NoOtherDaemons(), host: String = ""
    ) {
        self.init(
            users: UserStore(database: database), profiles: ProfileStore(database: database, observer: observer),
            tokens: TokenStore(database: database, observer: observer, host: host),
            oauth: OAuthStore(database: database),
            peerLinks: PeerLinkStore(database: database, observer: observer, host: host),
            throttle: ThrottleStore(database: database),
            tweets: TweetStore(database: database, committer: committer, observer: observer),
            follows: FollowStore(database: database, observer: observer),
            likes: LikeStore(database: database, observer: observer),
            bookmarks: BookmarkStore(database: database, observer: observer), pins: PinStore(database: database),
            lists: ListStore(database: database, observer: observer),
            relations: RelationStore(database: database, observer: observer),
            notifications: NotificationStore(database: database), search: search,
            moderation: ModerationStore(database: database, observer: observer),
            accounts: AccountStore(database: database, observer: observer),
            rateBuckets: RateBucketStore(database: database, host: host),
            messages: MessageStore(database: database, observer: observer), health: health, otherDaemons: otherDaemons)
    }
}
