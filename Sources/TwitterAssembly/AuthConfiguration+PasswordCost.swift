import Sodium
import TwitterServer

extension AuthConfiguration {
    /// The configured Argon2id cost: libsodium's INTERACTIVE limits with the configured overrides.
    public var passwordHashCost: PasswordHashCost {
        var cost = PasswordHashCost.interactive
        if let passwordOperations { cost.operations = passwordOperations }
        if let passwordMemoryBytes { cost.memoryBytes = passwordMemoryBytes }
        return cost
    }
}
