import JSONRPC

extension RPCError {
    /// The word `data.kind` says (`not_found`, `forbidden`...), for an endpoint that answers one refusal itself.
    var kind: String? {
        if case .string(let kind)? = data["kind"] { return kind }
        return nil
    }
}
