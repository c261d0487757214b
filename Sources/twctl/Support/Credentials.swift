import ArgumentParser
import Foundation

/// Reads what a login needs: from a flag, standard input, or a prompt when standard input is a terminal.
enum Credentials {
    /// The flag's value, or a prompt's on a terminal; without either it is a usage error.
    static func value(_ given: String?, prompt: String, flag: String) throws -> String {
        if let given { return given }
        guard Terminal.standardInputIsTerminal, let answer = Terminal.prompt(prompt), !answer.isEmpty else {
            throw ValidationError("Missing \(flag) (standard input is not a terminal to ask on).")
        }
        return answer
    }

    /// The password from standard input (--password-stdin), or typed without echo on a terminal.
    static func password(fromStandardInput: Bool) throws -> String {
        if fromStandardInput { return Terminal.readAllInput() }
        guard Terminal.standardInputIsTerminal, let password = Terminal.prompt("Password: ", secret: true) else {
            throw ValidationError("No password: use --password-stdin when standard input is not a terminal.")
        }
        return password
    }
}
