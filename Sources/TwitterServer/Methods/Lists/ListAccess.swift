import TwitterCore

extension TweetAccess {
    /// List `id` as `reader` may know it: its own always; someone else's when public and no block stands between
    /// the reader and the owner (`UserList.isVisible`). Otherwise -32004, as if there were none, so a private
    /// list's existence is told to nobody but its owner.
    func list(_ id: Int64, for reader: Int64, in lists: any ListStoring) async throws -> UserList {
        guard let list = try await lists.list(id: id),
            list.isVisible(to: reader, visibility: try await visibility(for: reader))
        else { throw TwitterError.notFound("List \(id)") }
        return list
    }

    /// The lists of `ownerID` that `reader` may see: the public ones, none across a block.
    func publicLists(of ownerID: Int64, for reader: Int64, in lists: any ListStoring) async throws -> [UserList] {
        let visibility = try await visibility(for: reader)
        return try await lists.lists(ownedBy: ownerID, includingPrivate: false).filter {
            $0.isVisible(to: reader, visibility: visibility)
        }
    }
}
