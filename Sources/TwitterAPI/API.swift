import JSONRPC

/// Every method of twitterd's protocol, declared once: its name, params and result types, and the descriptor
/// `rpc.discover` publishes. The daemon registers its handlers under these, TwitterClient and twctl call them.
///
/// Results are the types a client decodes. Where the daemon writes a result's JSON itself for speed (tweets,
/// feed pages), a test holds those bytes against the type declared here.
public enum API {
    /// `system.*` and `rpc.discover`.
    public enum System {}
    /// `auth.*`.
    public enum Auth {}
    /// `tokens.*`.
    public enum Tokens {}
    /// `tweets.*`.
    public enum Tweets {}
    /// `profile.*`.
    public enum Profiles {}
    /// `users.*`: accounts as others see them, and follows.
    public enum Users {}
    /// `timeline.*`.
    public enum Timelines {}

}

extension API {
    /// `notifications.*`.
    public enum Notifications {}
    /// `search.*`.
    public enum Search {}
    /// `tags.*`.
    public enum Tags {}
}
