// swift-tools-version: 6.2
// A to-do list served by ViewHost from its own package: what an app author writes to host a view model of their own.
// It depends on the ViewHost repository by path (two folders up); in an app of yours, use its URL and a version.
import PackageDescription

let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Todo",
    platforms: [.macOS(.v15), .iOS(.v17)],
    dependencies: [.package(name: "ViewHost", path: "../..")],
    targets: [
        // The wire types: the snapshot and the client events, shareable with an iOS or macOS app (no server code).
        .target(
            name: "TodoAPI", dependencies: [.product(name: "ViewHostAPI", package: "ViewHost")],
            swiftSettings: swiftSettings),
        // The feature: state, events, refusals, the undo window's timer, and its registration.
        .target(
            name: "TodoFeature",
            dependencies: ["TodoAPI", .product(name: "ViewHost", package: "ViewHost")],
            swiftSettings: swiftSettings),
        // The server: ViewHost's command serving the to-do list and nothing else (SQLite or memory: no libpq).
        .executableTarget(
            name: "todo-server",
            dependencies: ["TodoFeature", .product(name: "ViewHostCommandLine", package: "ViewHost")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TodoFeatureTests",
            dependencies: [
                "TodoFeature", "TodoAPI", .product(name: "ViewHost", package: "ViewHost"),
                .product(name: "ViewHostTesting", package: "ViewHost"),
            ],
            swiftSettings: swiftSettings),
    ]
)
