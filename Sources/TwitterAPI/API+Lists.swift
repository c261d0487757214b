import JSONRPC
import TwitterCore

extension API {
    /// `lists.*`: accounts an owner gathers to read their tweets together (`timeline.list`). Only the owner
    /// changes a list; a private list does not exist for anyone else.
    public enum Lists {}
}

extension API.Lists {
    // @MemberwiseInit
    /// `lists.create`'s params.
    public struct CreateParams: Codable, Sendable {
        /// 1 to 25 characters.
        public var name: String
        /// 0 to 100 characters; empty when nil.
        public var description: String?
        /// Whether only the owner may see it; false when nil.
        public var isPrivate: Bool?

        enum CodingKeys: String, CodingKey { case name, description, isPrivate = "private" }
    }

    // @MemberwiseInit
    /// `lists.update`'s params: the absent fields are left alone.
    public struct UpdateParams: Codable, Sendable {
        /// The list.
        public var id: Int64
        /// A new name.
        public var name: String?
        /// A new description.
        public var description: String?
        /// Private or public.
        public var isPrivate: Bool?

        enum CodingKeys: String, CodingKey { case id, name, description, isPrivate = "private" }
    }

    /// The params of a method on one list.
    public typealias IDParams = API.IDParams

    // @MemberwiseInit
    /// `lists.add`'s and `lists.remove`'s params.
    public struct MemberParams: Codable, Sendable {
        /// The list.
        public var id: Int64
        /// The account added or removed.
        public var username: String
    }

    /// `lists.members`' params.
    public typealias MembersParams = API.IDPageParams

    // @MemberwiseInit
    /// `lists.mine`'s and `lists.of`'s answer.
    public struct Lists: Codable, Sendable, Equatable {
        /// The lists, oldest first.
        public var lists: [UserList]
    }

    /// `lists.delete`'s answer.
    public typealias Deleted = API.Deleted

    static let listSchema = Schema.object(
        [
            Property("id", .integer(), required: true),
            Property("name", .string("1 to 25 characters."), required: true),
            Property("description", .string("0 to 100 characters."), required: true),
            Property("private", .boolean("Whether only its owner may see it."), required: true),
            Property(
                "owner",
                .object(
                    [
                        Property("id", .integer(), required: true),
                        Property("username", .string(), required: true),
                    ], title: "Owner"), required: true),
            Property("membersCount", .integer("How many members, at most 500."), required: true),
            Property("createdAt", .timestamp(), required: true),
        ], title: "List")

    static let listsSchema = Schema.object(
        [Property("lists", .array(of: listSchema), required: true)], title: "Lists")

    static let idParam = [Property("id", .integer("The list's id."), required: true)]

    static let memberParams = idParam + [Property("username", .string("The account."), required: true)]

    /// `lists.create`.
    public static let create = RPCMethod<CreateParams, UserList>(
        MethodDescriptor(
            "lists.create", summary: "Makes a list of yours; nobody you add is told.",
            params: [
                Property("name", .string("1 to 25 characters, one line."), required: true),
                Property("description", .string("0 to 100 characters, one line; empty when absent.")),
                Property("private", .boolean("Whether only you may see it; false when absent.")),
            ], result: listSchema, errors: ["invalid_params"], rate: .lists
        ))

    /// `lists.update`.
    public static let update = RPCMethod<UpdateParams, UserList>(
        MethodDescriptor(
            "lists.update", summary: "Changes your list's name, description or privacy; absent fields stay.",
            params: idParam + [
                Property("name", .string("1 to 25 characters, one line.")),
                Property("description", .string("0 to 100 characters, one line.")),
                Property("private", .boolean("Whether only you may see it.")),
            ], result: listSchema, errors: ["invalid_params", "forbidden", "not_found"], rate: .lists
        ))

    /// `lists.delete`.
    public static let delete = RPCMethod<IDParams, Deleted>(
        MethodDescriptor(
            "lists.delete", summary: "Deletes your list and its memberships.",
            params: idParam,
            result: .object([Property("deleted", .boolean(), required: true)], title: "ListDeleted"),
            positional: true, errors: ["forbidden", "not_found"], rate: .lists
        ))

    /// `lists.add`.
    public static let add = RPCMethod<MemberParams, UserList>(
        MethodDescriptor(
            "lists.add",
            summary:
                "Adds an account to your list (at most 500 members); refused when it blocks you or you block it.",
            params: memberParams, result: listSchema, positional: true,
            errors: ["forbidden", "not_found", "conflict"], rate: .listMembers
        ))

    /// `lists.remove`.
    public static let remove = RPCMethod<MemberParams, UserList>(
        MethodDescriptor(
            "lists.remove", summary: "Takes an account off your list; removing a non-member changes nothing.",
            params: memberParams, result: listSchema, positional: true, errors: ["forbidden", "not_found"],
            rate: .listMembers
        ))

    /// `lists.get`.
    public static let get = RPCMethod<IDParams, UserList>(
        MethodDescriptor(
            "lists.get", summary: "A list: yours, or someone's public one.",
            params: idParam, result: listSchema, positional: true, errors: ["not_found"]
        ))

    /// `lists.mine`.
    public static let mine = RPCMethod<NoParams, Lists>(
        MethodDescriptor(
            "lists.mine", summary: "The lists you own, private ones too, oldest first.", result: listsSchema
        ))

    /// `lists.of`.
    public static let of = RPCMethod<API.Users.UsernameParams, Lists>(
        MethodDescriptor(
            "lists.of", summary: "An account's public lists, oldest first.",
            params: [Property("username", .string(), required: true)], result: listsSchema, positional: true,
            errors: ["not_found"]
        ))

    /// `lists.members`.
    public static let members = RPCMethod<MembersParams, API.Users.UserPage>(
        MethodDescriptor(
            "lists.members", summary: "A list's members, newest first.",
            params: idParam + API.Tweets.pageParams, result: API.Tweets.userPageSchema,
            errors: ["invalid_params", "not_found"]
        ))
}
