import JSONRPC
import TwitterCore

/// Mastodon's Instance entities, v1 (https://docs.joinmastodon.org/entities/V1_Instance/) and v2
/// (https://docs.joinmastodon.org/entities/Instance/): what a client reads before it logs in.
///
/// `version` says Mastodon 4.3.0 first, which is what Mastodon.py parses (it cuts at the first space) to decide
/// which endpoints exist; `api_versions.mastodon` is 2, as Mastodon 4.3 says. The streaming URL is the origin the
/// client used, with `ws://` for `http://` as Mastodon writes it, so its streams reach the host it already reaches.
struct MastodonInstance: Sendable {
    /// The origin the client used, `http://127.0.0.1:3000`.
    var origin: String
    /// The longest tweet, in characters.
    var maximumCharacters: Int

    /// The version a client parses: Mastodon's API first, then ours.
    static let version = "4.3.0 (compatible; twitterd \(TwitterdVersion.current))"
    static let title = "twitterd"
    static let description = "A local microblog: the accounts of this machine, no federation, no media."

    /// The origin without its scheme: Mastodon's `uri` and `domain`.
    var domain: String {
        if let range = origin.range(of: "://") { return String(origin[range.upperBound...]) }
        return origin
    }

    /// The streaming origin: `ws://` for `http://`, `wss://` for `https://`.
    var streamingOrigin: String {
        if origin.hasPrefix("https://") { return "wss://" + domain }
        if origin.hasPrefix("http://") { return "ws://" + domain }
        return origin
    }

    /// Appends `GET /api/v1/instance`.
    func writeV1(into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.string("uri", domain, into: &bytes)
            object.string("title", Self.title, into: &bytes)
            object.string("short_description", Self.description, into: &bytes)
            object.string("description", Self.description, into: &bytes)
            object.string("email", "", into: &bytes)
            object.string("version", Self.version, into: &bytes)
            object.raw("urls", into: &bytes) { bytes in
                JSONObjectWriter.write(into: &bytes) { urls, bytes in
                    urls.string("streaming_api", streamingOrigin, into: &bytes)
                }
            }
            object.raw("stats", into: &bytes) { bytes in
                JSONObjectWriter.write(into: &bytes) { stats, bytes in
                    stats.count("user_count", 0, into: &bytes)
                    stats.count("status_count", 0, into: &bytes)
                    stats.count("domain_count", 0, into: &bytes)
                }
            }
            object.null("thumbnail", into: &bytes)
            object.raw("languages", into: &bytes) { $0.append(contentsOf: #"["en"]"#.utf8) }
            object.boolean("registrations", false, into: &bytes)
            object.boolean("approval_required", false, into: &bytes)
            object.boolean("invites_enabled", false, into: &bytes)
            object.raw("configuration", into: &bytes) { bytes in
                JSONObjectWriter.write(into: &bytes) { configuration, bytes in
                    configuration.raw("accounts", into: &bytes) { bytes in
                        JSONObjectWriter.write(into: &bytes) { accounts, bytes in
                            accounts.count("max_featured_tags", 0, into: &bytes)
                        }
                    }
                    writeLimits(into: &configuration, &bytes)
                }
            }
            object.null("contact_account", into: &bytes)
            object.emptyArray("rules", into: &bytes)
        }
    }

    /// Appends `GET /api/v2/instance`.
    func writeV2(into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.string("domain", domain, into: &bytes)
            object.string("title", Self.title, into: &bytes)
            object.string("version", Self.version, into: &bytes)
            object.string("source_url", "", into: &bytes)
            object.string("description", Self.description, into: &bytes)
            object.raw("usage", into: &bytes) { $0.append(contentsOf: #"{"users":{"active_month":0}}"#.utf8) }
            object.raw("thumbnail", into: &bytes) { bytes in
                JSONObjectWriter.write(into: &bytes) { thumbnail, bytes in
                    thumbnail.url("url", origin, MastodonAccount.headerPath, into: &bytes)
                }
            }
            object.emptyArray("icon", into: &bytes)
            object.raw("languages", into: &bytes) { $0.append(contentsOf: #"["en"]"#.utf8) }
            object.raw("configuration", into: &bytes) { bytes in
                JSONObjectWriter.write(into: &bytes) { configuration, bytes in
                    configuration.raw("urls", into: &bytes) { bytes in
                        JSONObjectWriter.write(into: &bytes) { urls, bytes in
                            urls.string("streaming", streamingOrigin, into: &bytes)
                            urls.null("status", into: &bytes)
                        }
                    }
                    configuration.raw("vapid", into: &bytes) { $0.append(contentsOf: #"{"public_key":""}"#.utf8) }
                    configuration.raw("accounts", into: &bytes) {
                        $0.append(contentsOf: #"{"max_featured_tags":0,"max_pinned_statuses":1}"#.utf8)
                    }
                    writeLimits(into: &configuration, &bytes)
                    configuration.raw("translation", into: &bytes) { $0.append(contentsOf: #"{"enabled":false}"#.utf8) }
                    configuration.raw("timelines_access", into: &bytes) { bytes in
                        let all = #"{"local":"public","remote":"public"}"#
                        bytes.append(
                            contentsOf: #"{"live_feeds":\#(all),"hashtag_feeds":\#(all),"trending_link_feeds":\#(all)}"#
                                .utf8)
                    }
                }
            }
            object.raw("registrations", into: &bytes) {
                $0.append(contentsOf: #"{"enabled":false,"approval_required":false,"message":null,"url":null}"#.utf8)
            }
            object.raw("api_versions", into: &bytes) { $0.append(contentsOf: #"{"mastodon":2}"#.utf8) }
            object.raw("contact", into: &bytes) { $0.append(contentsOf: #"{"email":"","account":null}"#.utf8) }
            object.emptyArray("rules", into: &bytes)
        }
    }

    /// The limits both versions share: statuses, media (none), polls (none).
    private func writeLimits(into configuration: inout JSONObjectWriter, _ bytes: inout [UInt8]) {
        configuration.raw("statuses", into: &bytes) { bytes in
            JSONObjectWriter.write(into: &bytes) { statuses, bytes in
                statuses.count("max_characters", maximumCharacters, into: &bytes)
                statuses.count("max_media_attachments", 0, into: &bytes)
                statuses.count("characters_reserved_per_url", 0, into: &bytes)
            }
        }
        configuration.raw("media_attachments", into: &bytes) { bytes in
            bytes.append(
                contentsOf:
                    #"{"supported_mime_types":[],"image_size_limit":0,"image_matrix_limit":0,"video_size_limit":0,"video_frame_rate_limit":0,"video_matrix_limit":0}"#
                    .utf8)
        }
        configuration.raw("polls", into: &bytes) { bytes in
            bytes.append(
                contentsOf:
                    #"{"max_options":0,"max_characters_per_option":0,"min_expiration":0,"max_expiration":0}"#.utf8)
        }
    }
}
