// swift-tools-version: 6.2
// A shopping list two people share, served by ViewHost from its own package (issue 43): a feature that can be shared,
// each item attributed to who added it from their credential. Examples/Todo is the single-user tutorial; this one
// adds participants. It depends on the ViewHost repository by path (two folders up); in an app of yours, use its URL
// and a version.
import PackageDescription

let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "SharedList",
    platforms: [.macOS(.v15), .iOS(.v17)],
    dependencies: [.package(name: "ViewHost", path: "../..")],
    targets: [
        // The wire types: the snapshot and the client events, shareable with an iOS or macOS app (no server code).
        .target(
            name: "SharedListAPI", dependencies: [.product(name: "ViewHostAPI", package: "ViewHost")],
            swiftSettings: swiftSettings),
        // The feature: state, events, refusals, its registration and the page's renderer for the list (a script and
        // its style, embedded in the code).
        .target(
            name: "SharedListFeature",
            dependencies: ["SharedListAPI", .product(name: "ViewHost", package: "ViewHost")],
            resources: [.embedInCode("Resources")], swiftSettings: swiftSettings),
        // The server: ViewHost's command serving the shared list and nothing else (SQLite or memory: no libpq).
        .executableTarget(
            name: "shared-list-server",
            dependencies: ["SharedListFeature", .product(name: "ViewHostCommandLine", package: "ViewHost")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SharedListFeatureTests",
            dependencies: [
                "SharedListFeature", "SharedListAPI", .product(name: "ViewHost", package: "ViewHost"),
                .product(name: "ViewHostTesting", package: "ViewHost"),
            ],
            swiftSettings: swiftSettings),
    ]
)
