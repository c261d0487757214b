import Testing

@testable import MemberwiseInits

@Suite struct MemberwiseInitGeneratorTests {
    let marker = MemberwiseInitGenerator.marker

    @Test func aMarkedStructGetsAParameterPerStoredPropertyWithSwiftsDefaults() throws {
        let source = """
            import Foundation

            extension API.Timelines {
                /// Docs.
                public struct UserParams: Codable, Sendable {
                    /// Whose.
                    public var username: String
                    public var limit: Int = 40  // a trailing comment
                    public var since: Int64?
                    public let fixed: Int = 3
                    public let required: Date?
                    public static var shared: Int = 0
                    public var computed: Int { limit * 2 }
                    var text: String { "{" }

                    \(marker)  // a comment
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
                    ])
            ])
    }

    @Test func theInitializerAssignsEveryParameter() {
        let generated = MemberwiseInitGenerator.initializer(
            of: .init(
                name: "Outer.Inner", access: "package",
                parameters: [
                    .init(name: "a", type: "[String: Int]", defaultValue: nil),
                    .init(name: "b", type: "Int?", defaultValue: "nil"),
                ]))
        #expect(
            generated == """
                extension Outer.Inner {
                    /// Creates the value from its members.
                    package init(a: [String: Int], b: Int? = nil) {
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
                public struct Nested<Item: Sendable>: Sendable where Item: Equatable {
                    public var items: [Item]
                    public var next: (Int) -> Void
                    public struct Inner {
                        var hidden: Int
                    }
                    \(marker)
                }
            }
            """
        let (structs, _, _) = try MemberwiseInitGenerator.scan(source)
        #expect(structs.map(\.name) == ["Namespace.Nested"])
        #expect(structs.first?.parameters.map(\.type) == ["[Item]", "(Int) -> Void"])
    }

    @Test func whatItCannotReadFailsTheBuildWithTheLine() {
        let cases: [(String, Int)] = [
            ("struct Internal {\n    var x: Int\n    \(marker)\n}", 3),
            ("public func f() {\n    public struct Local {\n        \(marker)\n    }\n}", 3),
            ("public struct S {\n    public var a, b: Int\n    \(marker)\n}", 2),
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
            (path: "A.swift", source: "import B\nimport A\npublic struct S {\n    public var x: Int\n    \(marker)\n}"),
            (path: "C.swift", source: "import C\npublic struct T {}"),
        ]
        let generated = try MemberwiseInitGenerator.generate(files)
        #expect(generated.contains("import A\nimport B\n\nextension S {"))
        #expect(!generated.contains("import C"))
        let broken = "struct S {\n    \(marker)\n}"
        #expect(throws: MemberwiseInitGenerator.Failure.self) {
            try MemberwiseInitGenerator.generate([(path: "D.swift", source: broken)])
        }
        do {
            _ = try MemberwiseInitGenerator.generate([(path: "D.swift", source: broken)])
        } catch {
            #expect(error.description.hasPrefix("D.swift:2: error:"))
        }
    }
}
