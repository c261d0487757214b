import Testing

@testable import MemberwiseInits

@Suite struct MemberwiseInitGeneratorTests {
    let marker = MemberwiseInitGenerator.marker

    @Test func aMarkedStructGetsAParameterPerStoredPropertyWithSwiftsDefaults() throws {
        let source = """
            import Foundation

            extension API.Timelines {
                \(marker)
                /// Docs.
                public struct UserParams: Codable, Sendable {
                    /// Whose.
                    public var username: String
                    public var limit: Int = 40  // a trailing comment
                    public var since: Int64?
                    public let fixed: Int = 3
                    public let required: Date?
                    @NullWhenAbsent public var cursor: String? = nil
                    public static var shared: Int = 0
                    public var computed: Int { limit * 2 }
                    var text: String { "{" }
                }
            }
            """
        let (structs, imports, _) = try MemberwiseInitGenerator.scan(source)
        #expect(imports == ["import Foundation"])
        #expect(
            structs == [
                .init(
                    name: "API.Timelines.UserParams", access: "public",
                    parameters: [
                        .init(name: "username", type: "String", defaultValue: nil),
                        .init(name: "limit", type: "Int", defaultValue: "40"),
                        .init(name: "since", type: "Int64?", defaultValue: "nil"),
                        .init(name: "required", type: "Date?", defaultValue: nil),
                        .init(name: "cursor", type: "String?", defaultValue: "nil", isWrapped: true),
                    ])
            ])
    }

    @Test func theInitializerAssignsEveryParameter() {
        let generated = MemberwiseInitGenerator.initializer(
            of: .init(
                name: "Outer.Inner", access: "package",
                parameters: [
                    .init(name: "b", type: "Int?", defaultValue: "nil", isWrapped: true),
                    .init(name: "a", type: "[String: Int]", defaultValue: nil),
                ]))
        #expect(
            generated == """
                extension Outer.Inner {
                    /// Creates the value from its members (the last parameter is never written).
                    package init(b: Int? = nil, a: [String: Int], _: Void = ()) {
                        self.a = a
                        self.b = b
                    }
                }
                """)
    }

    @Test func typesNestedAroundTheStructAreQualifiedAsItsBodySeesThem() {
        let types: Set<String> = ["API", "API.Auth", "API.Auth.Session", "API.Auth.Login", "API.Auth.Login.Kind"]
        #expect(
            MemberwiseInitGenerator.qualify("[Session: Kind]?", in: "API.Auth.Login", types: types)
                == "[API.Auth.Session: API.Auth.Login.Kind]?")
        #expect(MemberwiseInitGenerator.qualify("User", in: "API.Auth.Login", types: types) == "User")
        #expect(MemberwiseInitGenerator.qualify("Foo.Session", in: "API.Auth.Login", types: types) == "Foo.Session")
    }

    @Test func unmarkedStructsAndBracesInStringsAndCommentsDoNotConfuseTheScopes() throws {
        let source = """
            public struct Plain {
                public var x: Int
                public var a, b: Int
                let brace = "}}"  /* } */
                let raw = #"{"#
                let block = \"""
                    }
                    \"""
            }
            public enum Namespace {
                \(marker)
                public struct Nested<Item: Sendable>: Sendable where Item: Equatable {
                    public var items: [Item]
                    public var next: (Int) -> Void
                    public struct Inner {
                        var hidden: Int
                    }
                }
            }
            """
        let (structs, _, _) = try MemberwiseInitGenerator.scan(source)
        #expect(structs.map(\.name) == ["Namespace.Nested"])
        #expect(structs.first?.parameters.map(\.type) == ["[Item]", "(Int) -> Void"])
    }

    @Test func whatItCannotReadFailsTheBuildWithTheLine() {
        let cases: [(String, Int)] = [
            ("\(marker)\nstruct Internal {\n    var x: Int\n}", 2),
            ("public func f() {\n    \(marker)\n    public struct Local {}\n}", 3),
            ("\(marker)\npublic struct S {\n    public var a, b: Int\n}", 3),
            ("\(marker)\npublic enum NotAStruct {}", 1),
            ("\(marker)\npublic struct S {\n    @NullWhenAbsent public var a: Int?\n}", 3),
            ("public struct S {}\n\(marker)", 2),
        ]
        for (source, line) in cases {
            #expect(throws: MemberwiseInitGenerator.Failure.self, "\(source)") {
                try MemberwiseInitGenerator.scan(source)
            }
            do {
                _ = try MemberwiseInitGenerator.scan(source)
            } catch {
                #expect(error.line == line, "\(source)")
            }
        }
    }

    @Test func theGeneratedFileImportsWhatTheMarkingFilesImportAndNamesTheFileOfAFailure() throws {
        let files = [
            (path: "A.swift", source: "import B\nimport A\n\(marker)\npublic struct S {\n    public var x: Int\n}"),
            (path: "C.swift", source: "import C\npublic struct T {}"),
        ]
        let generated = try MemberwiseInitGenerator.generate(files)
        #expect(generated.contains("import A\nimport B\n\nextension S {"))
        #expect(!generated.contains("import C"))
        let broken = "import A\n\(marker)\nstruct S {}"
        #expect(throws: MemberwiseInitGenerator.Failure.self) {
            try MemberwiseInitGenerator.generate([(path: "D.swift", source: broken)])
        }
        do {
            _ = try MemberwiseInitGenerator.generate([(path: "D.swift", source: broken)])
        } catch {
            #expect(error.description.hasPrefix("D.swift:3: error:"))
        }
    }
}
