/// Writes the public memberwise initializer of every struct marked `// @MemberwiseInit` (on the line above its
/// doc comment), as Swift writes an internal one by itself: a parameter per stored property in declaration order,
/// labelled with its name; a `var`'s default value becomes the parameter's default, an optional `var` without one
/// defaults to nil, and a `let` with a value is not a parameter.
///
/// Swift gives a public struct no public memberwise initializer, and writing them by hand repeated the same lines
/// in every value type of the protocol and the domain. The generated initializer ends in an unnamed
/// `_: Void = ()` that no caller writes: without it, it would redeclare the internal initializer Swift still
/// writes for the struct. Inside the module a call picks Swift's, outside it the generated one; both do the same.
struct MemberwiseInitGenerator {
    /// A marked struct as found in a file.
    struct MarkedStruct: Equatable {
        /// The name to extend, qualified by its enclosing types and extensions.
        var name: String
        /// `public` or `package`: the initializer's access.
        var access: String
        /// The initializer's parameters, in order.
        var parameters: [Parameter]
    }

    /// One parameter of a generated initializer.
    struct Parameter: Equatable {
        /// The property's name.
        var name: String
        /// The property's type as written.
        var type: String
        /// The parameter's default, if it has one.
        var defaultValue: String?
        /// Whether the property has a property wrapper. Its storage is private to the struct's file, so an
        /// initializer in an extension sets it through the property, last, once every other member is set; the
        /// wrapper must therefore have an initial value.
        var isWrapped = false
    }

    /// A declaration the generator cannot handle, with where it stands.
    struct Failure: Error, Equatable, CustomStringConvertible {
        /// The file, once known.
        var path = ""
        /// The line, from 1.
        var line: Int
        /// What is wrong.
        var message: String

        var description: String { "\(path):\(line): error: \(message)" }
    }

    private struct Scope {
        var name: String?
        var found: FoundStruct?
    }

    /// A marked struct whose body is being read.
    private struct FoundStruct {
        var name: String
        var access: String
        var parameters: [Parameter] = []
        var unreadable: Failure?
    }

    private struct Declaration {
        var name: String
        var found: FoundStruct?
    }

    /// The marker, a line of its own above the struct's doc comment (swift-format wants the doc comment last).
    static let marker = "// @MemberwiseInit"

    /// The marked structs of one file, and its import lines.
    static func scan(_ source: String) throws(Failure) -> (
        structs: [MarkedStruct], imports: [String], types: [String]
    ) {
        var structs: [MarkedStruct] = []
        var imports: [String] = []
        var types: [String] = []
        var scopes: [Scope] = []
        var pending: Declaration?
        var markerLine: Int?
        for line in SwiftLines.lines(of: source) {
            let code = line.code.trimmingWhitespace()
            if line.text.trimmingWhitespace() == marker {
                markerLine = line.number
                continue
            }
            if line.depth == 0, code.wholeMatch(of: #/(@\w+\s+)*import\s+.+/#) != nil {
                imports.append(code)
            }
            if let alias = code.firstMatch(of: aliasPattern) {
                types.append((scopes.compactMap(\.name) + [String(alias.output.name)]).joined(separator: "."))
            } else if let declaration = code.firstMatch(of: declarationPattern) {
                let name = String(declaration.output.name)
                if declaration.output.kind != "extension" {
                    types.append((scopes.compactMap(\.name) + [name]).joined(separator: "."))
                }
                var found: FoundStruct?
                if let marked = markerLine {
                    guard declaration.output.kind == "struct" else {
                        throw Failure(
                            line: marked, message: "\(marker) marks a struct, not a \(declaration.output.kind)")
                    }
                    let access = ["public", "package"].first { declaration.output.modifiers.contains($0) }
                    guard let access, scopes.allSatisfy({ $0.name != nil }) else {
                        throw Failure(
                            line: line.number,
                            message: "\(marker) on a struct that is neither public nor package, or inside a function")
                    }
                    found = FoundStruct(
                        name: (scopes.compactMap(\.name) + [name]).joined(separator: "."), access: access)
                }
                markerLine = nil
                pending = Declaration(name: name, found: found)
            } else if scopes.last?.found != nil, line.depth == scopes.count, pending == nil {
                do {
                    if let parameter = try parameter(of: code, line: line.number) {
                        scopes[scopes.count - 1].found?.parameters.append(parameter)
                    }
                } catch {
                    scopes[scopes.count - 1].found?.unreadable = error
                }
            }
            for brace in line.braces {
                if brace == "{" {
                    scopes.append(Scope(name: pending?.name, found: pending?.found))
                    pending = nil
                } else if let closed = scopes.popLast()?.found {
                    if let unreadable = closed.unreadable { throw unreadable }
                    structs.append(
                        MarkedStruct(name: closed.name, access: closed.access, parameters: closed.parameters))
                }
            }
        }
        if let markerLine {
            throw Failure(line: markerLine, message: "\(marker) with no struct after it")
        }
        return (structs, imports, types)
    }

    /// The parameter a line of a marked struct's body adds, if it declares a stored instance property.
    private static func parameter(of code: String, line: Int) throws(Failure) -> Parameter? {
        guard let property = code.wholeMatch(of: propertyPattern) else {
            if code.wholeMatch(of: #/(@\w+.*\s+)?(\w+\s+)*(var|let)\s.*/#) != nil,
                code.firstMatch(of: #/\b(static|class)\s/#) == nil, !code.contains("{")
            {
                throw Failure(line: line, message: "a stored property the generator cannot read: \(code)")
            }
            return nil
        }
        let modifiers = String(property.output.modifiers)
        if modifiers.contains("static") || code.contains("{") { return nil }
        let name = String(property.output.name)
        let type = String(property.output.type)
        let value = property.output.value.map(String.init)
        let isWrapped = !property.output.wrappers.isEmpty
        if isWrapped && value == nil {
            throw Failure(line: line, message: "a wrapped property needs an initial value (= nil): \(code)")
        }
        if property.output.keyword == "let" {
            if value != nil { return nil }
            return Parameter(name: name, type: type, defaultValue: nil, isWrapped: isWrapped)
        }
        return Parameter(
            name: name, type: type, defaultValue: value ?? (type.hasSuffix("?") ? "nil" : nil), isWrapped: isWrapped)
    }

    /// The generated file: the imports of the files that mark a struct, and an extension a struct.
    static func generate(_ files: [(path: String, source: String)]) throws(Failure) -> String {
        var imports: Set<String> = []
        var marked: [MarkedStruct] = []
        var types: Set<String> = []
        for file in files {
            do {
                let scanned = try scan(file.source)
                types.formUnion(scanned.types)
                guard !scanned.structs.isEmpty else { continue }
                imports.formUnion(scanned.imports)
                marked += scanned.structs
            } catch var failure {
                failure.path = file.path
                throw failure
            }
        }
        let extensions = marked.map { found in
            var qualified = found
            for index in qualified.parameters.indices {
                qualified.parameters[index].type = qualify(found.parameters[index].type, in: found.name, types: types)
            }
            return initializer(of: qualified)
        }
        let header = "// Generated by BuildTools/MemberwiseInits from the structs marked \(marker).\n"
        return ([header + imports.sorted().joined(separator: "\n")] + extensions).joined(separator: "\n\n") + "\n"
    }

    /// `type` as written in the struct `owner`, with each name of a type nested in `owner` or in a type around it
    /// qualified: the generated extension of `A.B.C` does not see `A.B`'s other members, as the struct's body does.
    static func qualify(_ type: String, in owner: String, types: Set<String>) -> String {
        let scopes = owner.split(separator: ".").map(String.init)
        // A name after a dot is a member of what precedes it, already qualified.
        return type.replacing(#/(?<before>^|[^\w.])(?<name>[A-Za-z_]\w*)/#) { match in
            let name = String(match.output.name)
            for depth in stride(from: scopes.count, through: 1, by: -1) {
                let candidate = (scopes.prefix(depth) + [name]).joined(separator: ".")
                if types.contains(candidate) { return match.output.before + candidate }
            }
            return match.output.before + name
        }
    }

    /// One struct's extension with its initializer.
    static func initializer(of marked: MarkedStruct) -> String {
        let parameters =
            marked.parameters.map { parameter in
                "\(parameter.name): \(parameter.type)" + (parameter.defaultValue.map { " = \($0)" } ?? "")
            } + ["_: Void = ()"]
        let assignments = (marked.parameters.filter { !$0.isWrapped } + marked.parameters.filter(\.isWrapped)).map {
            "        self.\($0.name) = \($0.name)"
        }
        return """
            extension \(marked.name) {
                /// Creates the value from its members (the last parameter is never written).
                \(marked.access) init(\(parameters.joined(separator: ", "))) {
            \(assignments.joined(separator: "\n"))
                }
            }
            """
    }

    // The tool is one thread: its patterns are never shared.
    nonisolated(unsafe) private static let declarationPattern =
        #/^(?<modifiers>(?:@\w+(?:\([^)]*\))?\s+|(?:public|package|internal|fileprivate|private|final|indirect)\s+)*)(?<kind>struct|enum|class|actor|extension|protocol)\s+(?<name>[A-Za-z_][A-Za-z0-9_.]*)/#

    nonisolated(unsafe) private static let aliasPattern =
        #/^(?:(?:public|package|internal|fileprivate|private)\s+)?typealias\s+(?<name>\w+)/#

    /// A property line: a property wrapper (`@NullWhenAbsent`) is allowed; its initializer takes the wrapped value.
    nonisolated(unsafe) private static let propertyPattern =
        #/(?<wrappers>(?:@\w+\s+)*)(?<modifiers>(?:(?:public|package|internal|fileprivate|private)(?:\(set\))?\s+|static\s+|nonisolated\s+)*)(?<keyword>let|var)\s+(?<name>\w+)\s*:\s*(?<type>[^=]+?)\s*(?:=\s*(?<value>.+?))?\s*(?:\{.*)?/#
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let characters = self.drop { $0 == " " || $0 == "\t" }
        return String(characters.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
