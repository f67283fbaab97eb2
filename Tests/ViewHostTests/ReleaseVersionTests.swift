import Foundation
import Testing
import ViewHost

/// The version a build says it is (`--version`, `/healthz`, `/openapi.json`) is the release CHANGELOG.md is writing:
/// its top release heading (`## 0.2.0 (unreleased)`). It said 0.1.0 for every build since that release.
struct ReleaseVersionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The version of CHANGELOG.md's first `## ` heading: `0.2.0` of `## 0.2.0 (unreleased)`.
    static func changelogVersion() throws -> String {
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        return String(try #require(heading.dropFirst(3).split(separator: " ").first))
    }

    @Test func theVersionIsTheChangelogsTopRelease() throws {
        #expect(ViewHostVersion.current == (try Self.changelogVersion()))
        #expect(ViewHostVersion.current.split(separator: ".").count == 3)
    }

    /// The README's dependency line asks for that release from a repository the reader names, or a local checkout;
    /// never an invented URL.
    @Test func theReadmesDependencyLineAsksForThisRelease() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(#".package(path: "../viewhost")"#))
        #expect(readme.contains(#".package(url: "<URL of the ViewHost repository>", from: "\#(ViewHostVersion.current)")"#))
        #expect(!readme.contains("github.com/you"))
        #expect(!readme.contains(#"branch: "main""#))
    }
}
