/// Every Mastodon endpoint this module serves, the one list the HTTP transport routes: the data endpoints and the
/// OAuth ones (`/api/v1/apps`, `/oauth/*`).
public enum MastodonRoutes {
    /// The endpoints, by area.
    public static let all: [MastodonEndpoint] =
        OAuthEndpoints.all + InstanceEndpoints.all + AccountEndpoints.all + StatusEndpoints.all
        + TimelineEndpoints.all + NotificationEndpoints.all + ListEndpoints.all + ConversationEndpoints.all
        + SearchEndpoints.all
}
