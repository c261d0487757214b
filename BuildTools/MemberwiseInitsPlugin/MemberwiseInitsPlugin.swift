import PackagePlugin

/// Generates the public memberwise initializers of a target's structs marked `// @MemberwiseInit`
/// (BuildTools/MemberwiseInits), into one file compiled with the target.
@main
struct MemberwiseInitsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "MemberwiseInits.swift")
        return [
            .buildCommand(
                displayName: "Generating the memberwise initializers of \(target.name)",
                executable: try context.tool(named: "MemberwiseInits").url,
                arguments: [output.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
