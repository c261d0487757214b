import Foundation
import JSONRPC
import TwitterClient

extension DaemonProcess {
    /// An `[admin]` table naming this test process's primary group, so that `grantAdmin` works whoever runs the
    /// tests: root is an admin through the kernel's word anyway, and any other user is one through that group.
    public static var adminGroupConfiguration: String {
        guard let group = getgrgid(getegid()), let name = group.pointee.gr_name else { return "" }
        return "[admin]\ngroups = [\"\(String(cString: name))\"]\n"
    }

    /// Makes the account with `email` an admin as an operator does: this process's uid (root, or a member of
    /// the configured admin group) is linked to the account with its password, logs in through the kernel's word,
    /// stores the role with `admin.roles.grant`, and is unlinked again. The account's open connections end with
    /// the grant (their next login has the role).
    public func grantAdmin(email: String, username: String, password: String = "correct horse battery")
        async throws
    {
        let credentials: JSONValue = ["email": .string(email), "password": .string(password)]
        try await RPCConnection.withConnection(socketPath: ownSocketPath) { connection in
            _ = try await connection.call("auth.login", ["provider": "password", "credentials": credentials])
            _ = try await connection.call("auth.linkPeer", ["password": .string(password)])
            _ = try await connection.call("auth.login", ["provider": "peer", "credentials": [:]])
            _ = try await connection.call("admin.roles.grant", ["username": .string(username)])
        }
        try await RPCConnection.withConnection(socketPath: ownSocketPath) { connection in
            _ = try await connection.call("auth.login", ["provider": "password", "credentials": credentials])
            _ = try await connection.call("auth.unlinkPeer", [:])
        }
    }
}
