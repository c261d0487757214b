// The build tool behind the MemberwiseInits plugin: `MemberwiseInits OUTPUT INPUT...` writes to OUTPUT the public
// memberwise initializers of the structs the INPUT files mark `// @MemberwiseInit`.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: MemberwiseInits OUTPUT INPUT...\n".utf8))
    exit(2)
}
do {
    let files = try arguments.dropFirst().map { path in (path, try String(contentsOfFile: path, encoding: .utf8)) }
    let generated = try MemberwiseInitGenerator.generate(files)
    // Written only when it changes, so that the target's other files need not be compiled again.
    if (try? String(contentsOfFile: output, encoding: .utf8)) != generated {
        try generated.write(toFile: output, atomically: true, encoding: .utf8)
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
