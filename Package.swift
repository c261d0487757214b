// swift-tools-version: 6.2
import PackageDescription

// The request layer's generic dispatch (`RequestProcessor<Context>`, its middleware list, the route groups) is
// specialized for the daemon's context only where its bodies can be seen from the module that names the context:
// unspecialized, every call looked up `any RequestMiddleware<Context>`'s metadata at run time. Measured with
// bench/instructions.sh (release, callgrind): a ping 12,040 instructions without, 9,948 with (bench/analysis.md).
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

// Every dependency is pinned to the version the build machines mirror; `from:` must name exactly that version.
let package = Package(
    name: "twitterd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "twitterd", targets: ["twitterd"]),
        .executable(name: "twctl", targets: ["twctl"]),
        .executable(name: "twbench", targets: ["twbench"]),
        .library(name: "TwitterClient", targets: ["TwitterClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .target(name: "Sodium", dependencies: ["CSodium"]),
        // zlib, for the HTTP front's gzip answers (Content-Encoding), as Mastodon's nginx gives its clients.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The terminal for `twctl tui`: ncursesw (Debian's libncurses-dev carries the wide-character library).
        .systemLibrary(
            name: "CNCursesW",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        // Swift gives a public struct no public memberwise initializer: this build tool writes the one of each
        // struct marked `// @MemberwiseInit`, instead of a hand-written copy in every value type.
        .executableTarget(name: "MemberwiseInits", path: "BuildTools/MemberwiseInits"),
        .plugin(
            name: "MemberwiseInitsPlugin", capability: .buildTool(), dependencies: ["MemberwiseInits"],
            path: "BuildTools/MemberwiseInitsPlugin"),
        .target(name: "TwitterCore", plugins: ["MemberwiseInitsPlugin"]),
        // What runs the domain: the concurrency tools the stores and the server build on, and the one commit
        // pipeline (the publisher the stores publish to, the hub every live stream reads).
        .target(name: "TwitterRuntime", dependencies: ["TwitterCore"]),
        // Every write's decision, once, as pure functions from the facts a store reads to a plan it applies.
        .target(name: "TwitterRules", dependencies: ["TwitterCore"], plugins: ["MemberwiseInitsPlugin"]),
        // The stores written once over a small SQL driver protocol; each database is a driver and a dialect.
        .target(
            name: "TwitterSQL", dependencies: ["TwitterCore", "TwitterRules", "TwitterRuntime"],
            plugins: ["MemberwiseInitsPlugin"]),
        // Which file a name stands for, without asking for its times: the log's syncer checks it before every sync.
        .target(name: "CFileIdentity"),
        .target(
            name: "TwitterSQLite",
            dependencies: [
                "CFileIdentity", "TwitterCore", "TwitterRules", "TwitterSQL",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            plugins: ["MemberwiseInitsPlugin"]
        ),
        // PostgreSQL through postgres-nio: the same store protocols, for several daemons sharing one database.
        .target(
            name: "TwitterPostgres",
            dependencies: [
                "TwitterCore", "TwitterRules", "TwitterRuntime", "TwitterSQL", "EventLoopExecutor",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["MemberwiseInitsPlugin"]
        ),
        .target(
            name: "JSONRPC",
            swiftSettings: crossModule,
            plugins: ["MemberwiseInitsPlugin"]),
        // The Mastodon client API as endpoints over the request layer: Mastodon's params in, the daemon's typed
        // methods called, Mastodon's entities out. No HTTP types and no rule: the HTTP transport serves it.
        .target(
            name: "MastodonAPI", dependencies: ["JSONRPC", "TwitterAPI", "TwitterCore"],
            plugins: ["MemberwiseInitsPlugin"]),
        // `twctl tui`'s pure model: state, key -> effects, state -> a grid of cells; no terminal, no socket.
        .target(name: "TwitterTUI", dependencies: ["TwitterCore"], plugins: ["MemberwiseInitsPlugin"]),
        // Swift tasks on a NIO event loop: the server's connections and the PostgreSQL store's queries use it.
        .target(name: "EventLoopExecutor", dependencies: [.product(name: "NIOCore", package: "swift-nio")]),
        // The protocol's shared declarations: the daemon answers with them and its clients branch on them.
        .target(name: "TwitterAPI", dependencies: ["JSONRPC", "TwitterCore"], plugins: ["MemberwiseInitsPlugin"]),
        // Login providers: each depends on TwitterCore and Sodium only; twitterd's main registers them.
        .target(name: "PasswordLogin", dependencies: ["TwitterCore", "Sodium"], path: "Plugins/PasswordLogin"),
        .target(name: "TokenLogin", dependencies: ["TwitterCore", "Sodium"], path: "Plugins/TokenLogin"),
        .target(name: "PeerLogin", dependencies: ["TwitterCore"], path: "Plugins/PeerLogin"),
        // The request layer, transport-neutral: route groups, middleware, the methods, the read model.
        .target(
            name: "TwitterServer",
            dependencies: [
                "JSONRPC", "TwitterAPI", "TwitterCore", "TwitterRuntime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: crossModule,
            plugins: ["MemberwiseInitsPlugin"]
        ),
        // The JSON-RPC line server over the request layer: the Unix socket listener, line framing and each
        // connection's handler and state machine. An HTTP transport will stand beside it, over the same layer.
        .target(
            name: "JSONRPCTransport",
            dependencies: [
                "TwitterServer", "JSONRPC", "TwitterAPI", "TwitterCore", "EventLoopExecutor",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: crossModule
        ),
        // The Mastodon client API over HTTP/1.1 (NIOHTTP1), the second transport over the request layer: listeners
        // (http.sock, loopback TCP with the peer's uid from sock_diag), the Host check, the bearer login, and
        // MastodonAPI's endpoints served. No rule lives here.
        .target(
            name: "HTTPTransport",
            dependencies: [
                "TwitterServer", "MastodonAPI", "JSONRPC", "TwitterAPI", "TwitterCore", "EventLoopExecutor", "CZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "TwitterClient",
            dependencies: [
                "JSONRPC",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The one place that names the database driver and every plugin: the daemon's main and the tests assemble
        // with it.
        .target(
            name: "TwitterAssembly",
            dependencies: [
                "TwitterServer", "TwitterSQLite", "TwitterPostgres", "TwitterCore", "TwitterRuntime", "JSONRPC",
                "Sodium",
                "PasswordLogin", "TokenLogin", "PeerLogin", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "twitterd",
            dependencies: [
                "TwitterAssembly", "TwitterServer", "JSONRPCTransport", "HTTPTransport", "MastodonAPI", "TwitterSQLite",
                "TwitterPostgres",
                "TwitterCore",
                "TwitterClient",
                "Sodium",
                "PasswordLogin", "TokenLogin", "PeerLogin",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // lld packs the 132,000 relative relocations of a position-independent static-stdlib binary into a
            // RELR table of 26 KB instead of a 3.1 MB .rela.dyn that the loader reads through at every start
            // and that stayed resident (glibc 2.36 or later runs it; docs/BENCHMARKS.md, "Memory").
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .executableTarget(
            name: "twctl",
            dependencies: [
                "TwitterClient", "JSONRPC", "TwitterAPI", "TwitterCore", "TwitterTUI", "CNCursesW",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["JSONRPC", "TwitterClient"], path: "Tests/TestSupport"),
        .executableTarget(
            name: "twbench",
            dependencies: [
                "TwitterClient", "JSONRPC",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "TestSupport"]),
        .testTarget(name: "MemberwiseInitsTests", dependencies: ["MemberwiseInits"]),
        .testTarget(
            name: "MastodonAPITests",
            dependencies: [
                "MastodonAPI", "JSONRPC", "TwitterAPI", "TwitterCore", "TwitterServer", "TwitterAssembly", "Sodium",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "TwitterCoreTests", dependencies: ["TwitterCore"]),
        .testTarget(name: "TwitterRuntimeTests", dependencies: ["TwitterRuntime", "TwitterCore"]),
        .testTarget(name: "TwitterRulesTests", dependencies: ["TwitterRules", "TwitterCore"]),
        .testTarget(name: "SodiumTests", dependencies: ["Sodium"]),
        .testTarget(name: "TwitterTUITests", dependencies: ["TwitterTUI", "TwitterCore"]),
        .testTarget(
            name: "TwitterStoreTests",
            dependencies: [
                "TwitterSQLite", "TwitterPostgres", "TwitterSQL", "TwitterCore", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PluginTests",
            dependencies: [
                "PasswordLogin", "TokenLogin", "PeerLogin", "TwitterSQLite", "TwitterSQL", "TwitterCore", "Sodium",
            ]
        ),
        .testTarget(
            name: "TwitterServerTests",
            dependencies: [
                "TwitterServer", "TwitterAssembly", "TwitterAPI", "TwitterSQLite", "TwitterSQL", "JSONRPC",
                "TwitterCore", "TwitterRuntime", "MastodonAPI",
                "TestSupport",
                "Sodium",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "JSONRPCTransportTests",
            dependencies: [
                "JSONRPCTransport", "TwitterServer", "TwitterAPI", "TwitterSQLite", "JSONRPC", "TwitterCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HTTPTransportTests",
            dependencies: [
                "HTTPTransport", "MastodonAPI", "TwitterServer", "TwitterAssembly", "TwitterAPI", "JSONRPC",
                "TwitterCore", "Sodium", "TestSupport", "CZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TwitterClient", "JSONRPC", "TestSupport", "TwitterSQLite", "TwitterAPI",
                // Only to break a database on purpose, as the check tests must.
                .product(name: "GRDB", package: "GRDB.swift"),
                // Only to seal a message the way daemons before issue #48 did.
                "Sodium",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer target over the request decoder and router, only when asked for (`make fuzz`): it needs
// -sanitize=fuzzer,address, which ordinary builds must not get.
if Context.environment["TWITTERD_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "TwitterFuzz", dependencies: ["JSONRPC"], path: "Fuzz/TwitterFuzz",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    )
}
