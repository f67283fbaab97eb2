// swift-tools-version: 6.2
// ViewHost: a NIO-free HTTP/1.1 host for per-session MVVM view models.
// A library first: ViewHost (the app layer) hosts any feature registered with it; the `viewhost` executable is one of
// its users, with the four seed features. Layers point one way (docs/ARCHITECTURE.md):
//   viewhost → {seed features, ViewHost} ; ViewHost → {HTTPCore, HTTPTLS, stores, ViewModelCore} ; features → ViewModelCore
//   → ViewHostAPI (the generic wire core, which builds for iOS too).
import Foundation
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ViewHost",
    // iOS 17 for ViewHostClient (and ViewHostAPI, ViewHostLocking), which use nothing newer; the server needs macOS 15.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "viewhost", targets: ["Server"]),
        // What an app author imports to write features (ViewModelCore, ViewHostAPI) and serve them (ViewHost), on
        // the memory store or SQLite.
        .library(name: "ViewHost", targets: ["ViewHost", "ViewModelCore", "ViewHostAPI"]),
        // The command an app's main runs (`serve`, `check`, `backup`, `repair`, `replay`, `client`, `typescript`):
        // ViewHostCommand.run(features:). An app with a main of its own serves through ViewHost alone.
        .library(name: "ViewHostCommandLine", targets: ["ViewHostCommandLine"]),
        // PostgreSQL for several nodes (libpq): PostgresSessionStorage, and `.postgres` for ViewHostCommand.run's
        // stores. A SQLite-only app does not link it.
        .library(name: "ViewHostPostgres", targets: ["PostgresStorage"]),
        // TestHost: a feature or a whole session in process, without sockets, on a manual clock.
        .library(name: "ViewHostTesting", targets: ["ViewHostTesting"]),
        // The Swift client, with the generic wire types it speaks.
        .library(name: "ViewHostClient", targets: ["ViewHostClient", "ViewHostAPI"]),
        // The generic wire core alone, for a feature's wire-types module that an iOS or macOS app shares.
        .library(name: "ViewHostAPI", targets: ["ViewHostAPI"]),
        // Each seed feature's wire types, as any author's would be: for a Swift client of the viewhost executable.
        .library(name: "ChatAPI", targets: ["ChatAPI"]),
        .library(name: "WeatherAPI", targets: ["WeatherAPI"]),
        .library(name: "LoginAPI", targets: ["LoginAPI"]),
        .library(name: "PersonAPI", targets: ["PersonAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // C shims: only what Swift cannot import directly.
        .target(name: "CSystemShim"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // Locked<Value>: the one lock type, on pthread mutexes, which ThreadSanitizer sees (Locked.swift says why).
        .target(name: "ViewHostLocking", swiftSettings: swiftSettings),

        // HTTP/1.1 on sockets and epoll. No app knowledge.
        .target(
            name: "HTTPCore",
            dependencies: [
                "CSystemShim",
                "CZlib",
                "ViewHostLocking",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // TLS over the system OpenSSL, plugged into HTTPCore's connections as a TransportSecurity.
        .target(
            name: "HTTPTLS",
            dependencies: ["HTTPCore", "COpenSSL", "ViewHostLocking"],
            swiftSettings: swiftSettings
        ),

        // The generic wire core: ViewModel, FeatureSnapshot, FeatureIntent, ActionDescriptor, TextLimit. No feature.
        .target(name: "ViewHostAPI", swiftSettings: swiftSettings),

        // The Swift client: URLSession (FoundationNetworking on Linux) and the wire types, nothing of the server.
        .target(
            name: "ViewHostClient", dependencies: ["ViewHostAPI", "ViewHostJSON", "ViewHostLocking"], swiftSettings: swiftSettings),

        // MVVM plumbing: features as pure state machines, sessions as values and their thin shell. No HTTP.
        .target(
            name: "ViewModelCore",
            dependencies: ["ViewHostAPI", "ViewHostCrypto", "ViewHostJSON", "ViewHostLocking"],
            swiftSettings: swiftSettings
        ),

        // A strict JSON reader and writer for request bodies and small answers (Foundation's cost more than a request).
        .target(
            name: "ViewHostJSON",
            swiftSettings: swiftSettings
        ),

        // SHA-256 from the system OpenSSL: token digests and request fingerprints.
        .target(name: "ViewHostCrypto", dependencies: ["COpenSSL"], swiftSettings: swiftSettings),

        // The embedded durable store: sessions, their journals and snapshots in SQLite (through GRDB).
        .target(
            name: "SQLiteStorage",
            dependencies: ["CZlib", "ViewModelCore", "ViewHostLocking", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),

        // The store several nodes share: sessions, journals, snapshots and leases in PostgreSQL (through libpq).
        .target(
            name: "PostgresStorage",
            dependencies: ["ViewModelCore", "CPostgreSQL", "ViewHostLocking"],
            swiftSettings: swiftSettings
        ),

        // The library's app layer: routes ↔ registered features, sessions, stores, the contract (OpenAPI), the page,
        // configuration, and the command-line front end (`serve`, `backup`, `check`, `client`) an app's main reuses.
        .target(
            name: "ViewHost",
            dependencies: [
                "HTTPCore",
                "HTTPTLS",
                "SQLiteStorage",
                "ViewHostAPI",
                "ViewHostClient",
                "ViewHostCrypto",
                "ViewHostJSON",
                "ViewHostLocking",
                "ViewModelCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The page's markup, style and compiled script (Clients/TypeScript/compile.sh), and the OpenAPI base.
            resources: [.embedInCode("OpenAPI/Resources/openapi-base.json"), .embedInCode("Web/Resources")],
            swiftSettings: swiftSettings
        ),

        // The command-line front end an app's main reuses: `serve`, `check`, `backup`, `repair`, `replay`, `client`
        // and `typescript`, with the app's features and the stores it brings (PostgreSQL only when it passes it).
        .target(
            name: "ViewHostCommandLine",
            dependencies: [
                "HTTPCore",
                "HTTPTLS",
                "SQLiteStorage",
                "ViewHost",
                "ViewHostAPI",
                "ViewHostCrypto",
                "ViewHostClient",
                "ViewHostJSON",
                "ViewHostLocking",
                "ViewModelCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // TestHost: a feature or a whole session in process on a manual clock (no sockets, no threads).
        .target(
            name: "ViewHostTesting", dependencies: ["ViewModelCore", "ViewHostAPI", "ViewHostJSON"], swiftSettings: swiftSettings),

        // The `viewhost` executable: the four seed features, served through the library like any app.
        .executableTarget(
            name: "Server",
            dependencies: [
                "ViewHost", "ViewHostCommandLine", "PostgresStorage", "ChatFeature", "LoginFeature", "PersonFeature",
                "WeatherFeature",
            ],
            swiftSettings: swiftSettings
        ),

        // A test-only app (not a product): a `tally` feature in the schema version an environment variable names, so
        // the take-over tests run a schema change with one binary (Tests/ServerTests/TakeOverSchemaProcessTests); with
        // SCHEMA_TEST_SHARED=1 also `board` (a snapshot per viewer) and `shared` (Tests/ServerTests/ViewerSnapshotProcessTests).
        .executableTarget(
            name: "schema-test-server", dependencies: ["ViewHost", "ViewHostAPI", "ViewHostCommandLine", "ViewModelCore"],
            path: "Tests/Apps/schema-test-server", swiftSettings: swiftSettings),

        // Benchmarks/run.sh's server: the peers' two bench routes on HTTPCore (measurement harness, not a product).
        .executableTarget(
            name: "viewhost-bench",
            dependencies: [
                "HTTPCore", "ViewHostJSON", "ViewHostLocking", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Sources/viewhost-bench",
            swiftSettings: swiftSettings
        ),
        // Benchmarks/sse.sh's client: 10,000 event streams read by one epoll loop (measurement harness, not a product).
        .executableTarget(
            name: "sse-bench", dependencies: ["BenchSupport", "CSystemShim", "ViewHostJSON"], path: "Benchmarks/Sources/sse-bench",
            swiftSettings: swiftSettings),
        // Benchmarks/shared.sh's client: one shared session's fan-out, memory and throughput (measurement harness).
        .executableTarget(
            name: "shared-bench", dependencies: ["BenchSupport", "CSystemShim", "ViewHostJSON"],
            path: "Benchmarks/Sources/shared-bench", swiftSettings: swiftSettings),
        // What the native load clients share: loopback sockets, HTTP answers, event streams with kernel receive
        // timestamps, percentiles (measurement harness, not a product).
        .target(
            name: "BenchSupport", dependencies: ["CSystemShim"], path: "Benchmarks/Sources/BenchSupport",
            swiftSettings: swiftSettings),
        // Benchmarks/deliveries.sh's client: chat messages between people's sessions, latency to the receiver's stream
        // and throughput against the bot (measurement harness, not a product).
        .executableTarget(
            name: "delivery-bench", dependencies: ["BenchSupport", "CSystemShim", "ViewHostJSON"],
            path: "Benchmarks/Sources/delivery-bench", swiftSettings: swiftSettings),
        // Making an event stream's patches, per version of a replayed session (measurement harness, not a product).
        .executableTarget(
            name: "patch-bench", dependencies: ["ViewHostJSON"], path: "Benchmarks/Sources/patch-bench",
            swiftSettings: swiftSettings),
        // The offline gazetteer's size, load and lookup numbers for BENCHMARKS.md (measurement harness, not a product).
        .executableTarget(
            name: "gazetteer-bench", dependencies: ["WeatherFeature"], path: "Benchmarks/Sources/gazetteer-bench",
            swiftSettings: swiftSettings),

        // The seed features, each as any author's would be: its wire types (snapshot, client events; shareable with
        // an app) and its logic, built on the public API only.
        .target(name: "ChatAPI", dependencies: ["ViewHostAPI"], swiftSettings: swiftSettings),
        // Each feature's page renderer is a file of its own, embedded (compiled from Clients/TypeScript/renderers/).
        .target(
            name: "ChatFeature", dependencies: ["ViewModelCore", "ViewHostAPI", "ChatAPI"],
            resources: [.embedInCode("Resources")], swiftSettings: swiftSettings),
        .target(name: "LoginAPI", dependencies: ["ViewHostAPI"], swiftSettings: swiftSettings),
        .target(
            name: "LoginFeature", dependencies: ["ViewModelCore", "ViewHostAPI", "LoginAPI"],
            resources: [.embedInCode("Resources")], swiftSettings: swiftSettings),
        .target(name: "PersonAPI", dependencies: ["ViewHostAPI"], swiftSettings: swiftSettings),
        .target(
            name: "PersonFeature", dependencies: ["ViewModelCore", "ViewHostAPI", "PersonAPI"],
            resources: [.embedInCode("Resources")], swiftSettings: swiftSettings),
        .target(name: "WeatherAPI", dependencies: ["ViewHostAPI"], swiftSettings: swiftSettings),
        // The offline gazetteer's data, generated by scripts/make-gazetteer.py (a C array, so the binary needs no
        // resource bundle and the compiler no megabyte Swift literal).
        .target(name: "CGazetteerData"),
        .target(
            name: "WeatherFeature",
            dependencies: ["ViewModelCore", "ViewHostAPI", "WeatherAPI", "CGazetteerData", "ViewHostLocking"],
            resources: [.embedInCode("Resources")], swiftSettings: swiftSettings),

        // Test helpers shared by the test targets (not a product).
        .target(
            name: "TestSupport",
            dependencies: ["CSystemShim", "ViewHostAPI", "ViewModelCore", "ViewHostCrypto", "ViewHostLocking"],
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "HTTPCoreTests",
            dependencies: [
                "HTTPCore", "TestSupport", "ViewHostLocking", "CZlib", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPTLSTests",
            dependencies: [
                "HTTPTLS", "HTTPCore", "COpenSSL", "CSystemShim", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ChatFeatureTests",
            dependencies: ["ViewHostAPI", "ChatAPI", "ChatFeature", "ViewModelCore", "TestSupport", "ViewHostTesting"],
            // Journal exports are read by path (#filePath), as fixtures of users' sessions.
            exclude: ["Journals"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LoginFeatureTests", dependencies: ["ViewHostAPI", "LoginAPI", "LoginFeature", "ViewModelCore", "TestSupport"],
            swiftSettings: swiftSettings),
        // ViewHostTesting's own helpers, on a seed feature with a schema migration (login's version 2).
        .testTarget(
            name: "ViewHostTestingTests",
            dependencies: ["ViewHostTesting", "ViewModelCore", "ViewHostAPI", "ViewHostJSON", "LoginFeature", "LoginAPI"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PersonFeatureTests",
            dependencies: ["ViewHostAPI", "PersonAPI", "PersonFeature", "ViewModelCore", "TestSupport", "ViewHostTesting"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WeatherFeatureTests",
            dependencies: [
                "ViewHostAPI", "WeatherAPI", "WeatherFeature", "ViewModelCore", "TestSupport", "HTTPCore",
                "ViewHostLocking", "ViewHostTesting", .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures/JSON")], swiftSettings: swiftSettings),
        .testTarget(name: "ViewHostCryptoTests", dependencies: ["ViewHostCrypto"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ViewModelCoreTests",
            dependencies: ["ViewHostAPI", "ViewHostJSON", "ViewModelCore", "TestSupport", "ViewHostLocking", "ViewHostTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ViewHostJSONTests",
            dependencies: ["ViewHostJSON", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SQLiteStorageTests",
            dependencies: [
                "SQLiteStorage", "ViewModelCore", "ViewHostAPI", "TestSupport", "ViewHostLocking",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "ServerTests",
            dependencies: ["Server", "TestSupport", "ViewHostLocking"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        // The client and `viewhost client` against the real binary (Server builds it) on port 0.
        .testTarget(
            name: "ViewHostClientTests",
            dependencies: [
                "ViewHostClient", "ViewHostAPI", "ViewHostJSON", "Server", "TestSupport", "CSystemShim", "ViewHostLocking",
                "ChatAPI", "LoginAPI", "PersonAPI", "WeatherAPI",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostgresStorageTests",
            dependencies: ["PostgresStorage", "ViewHostAPI", "ViewModelCore", "TestSupport", "ViewHostLocking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ViewHostTests",
            dependencies: [
                "ViewHostAPI", "ViewHost", "HTTPCore", "ViewHostJSON", "ViewModelCore", "TestSupport", "ChatAPI", "ChatFeature",
                "LoginAPI", "LoginFeature", "PersonAPI", "PersonFeature", "WeatherAPI", "WeatherFeature", "ViewHostLocking",
                "PostgresStorage", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

// Fuzz/run.sh's libFuzzer targets, declared only when VIEWHOST_FUZZ is set: they link only with
// `-sanitize=fuzzer` (each `main` calls libFuzzer's driver), so a plain build or test must not see them.
if ProcessInfo.processInfo.environment["VIEWHOST_FUZZ"] != nil {
    let fuzzSettings = swiftSettings + [.unsafeFlags(["-parse-as-library"])]
    package.targets.append(
        .executableTarget(
            name: "HTTPParserFuzzer",
            dependencies: ["HTTPCore"],
            path: "Fuzz/HTTPParserFuzzer",
            swiftSettings: swiftSettings + [.enableExperimentalFeature("Extern"), .unsafeFlags(["-parse-as-library"])]
        )
    )
    package.targets.append(
        .target(
            name: "FuzzSupport", path: "Fuzz/FuzzSupport",
            swiftSettings: swiftSettings + [.enableExperimentalFeature("Extern")]))
    let fuzzers: [(name: String, dependencies: [Target.Dependency])] = [
        ("ChunkedBodyFuzzer", ["HTTPCore"]),
        ("JSONFuzzer", ["ViewHostJSON"]),
        ("GzipFuzzer", ["HTTPCore"]),
        ("EventDecodingFuzzer", ["ViewHost", "HTTPCore", "ChatFeature", "WeatherFeature", "LoginFeature", "PersonFeature"]),
        ("HeaderValuesFuzzer", ["ViewHost", "HTTPCore"]),
        (
            "JournalImportFuzzer",
            ["ViewModelCore", "ViewHostCrypto", "ChatFeature", "WeatherFeature", "LoginFeature", "PersonFeature"]
        ),
    ]
    for fuzzer in fuzzers {
        package.targets.append(
            .executableTarget(
                name: fuzzer.name, dependencies: fuzzer.dependencies + ["FuzzSupport"], path: "Fuzz/\(fuzzer.name)",
                swiftSettings: fuzzSettings))
    }
}
