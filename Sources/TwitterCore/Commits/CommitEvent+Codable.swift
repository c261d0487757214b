/// A commit's event in JSON is its subject's event alone, `{"<case>":{…}}`, as the commit log has always kept
/// it (when one enum held every case): entries logged before the split and after it read the same, and the
/// subject is told by the case's key.
extension CommitEvent: Codable {
    /// Reads the event whose one key names its case.
    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CaseKey.self).allKeys
        guard keys.count == 1, let key = keys.first?.stringValue else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a commit event has exactly one key"))
        }
        if TweetEvent.CodingKeys(stringValue: key) != nil {
            self = .tweet(try TweetEvent(from: decoder))
        } else if RelationEvent.CodingKeys(stringValue: key) != nil {
            self = .relation(try RelationEvent(from: decoder))
        } else if AccountEvent.CodingKeys(stringValue: key) != nil {
            self = .account(try AccountEvent(from: decoder))
        } else if MessageEvent.CodingKeys(stringValue: key) != nil {
            self = .message(try MessageEvent(from: decoder))
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "no commit event is called \(key)"))
        }
    }

    /// Writes the subject's event as it is.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .tweet(let event): try event.encode(to: encoder)
        case .relation(let event): try event.encode(to: encoder)
        case .account(let event): try event.encode(to: encoder)
        case .message(let event): try event.encode(to: encoder)
        }
    }

    /// Any key: the case's name, before it is known which subject's it is.
    private struct CaseKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
