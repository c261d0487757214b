import Foundation

/// Finds the executables SwiftPM built next to the test bundle, so end-to-end tests run the real binaries.
public enum BuiltProducts {
    /// The folder holding `twitterd`, `twctl` and the test bundle.
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["TWITTERD_BUILD_DIR"] { return override }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // The runner is `<products>/twitterdPackageTests.xctest` (a file on Linux, a bundle elsewhere).
        while url.path != "/" {
            let candidate = url.deletingLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("twitterd").path) {
                return candidate.path
            }
            url = candidate
        }
        return FileManager.default.currentDirectoryPath + "/.build/debug"
    }

    /// The path of the executable `name`.
    public static func path(of name: String) -> String {
        directory + "/" + name
    }

    /// A copy of the executable `name` in `folder`, mode 0755: runnable by another user (`nobody`) wherever
    /// the checkout lives, a 0700 home folder included.
    public static func copy(_ name: String, into folder: String) throws -> String {
        let copy = folder + "/" + name
        try FileManager.default.copyItem(atPath: path(of: name), toPath: copy)
        chmod(copy, 0o755)
        return copy
    }
}
