import Foundation
import Testing
import TestSupport

/// The README says which Debian packages the scripts install, and the binary says which release it is: each as the
/// scripts and CHANGELOG.md have it (the README left out `libpq-dev`, `postgresql` and `nginx`, which the scripts
/// install, and the binary said 0.1.0 for every build since that release).
struct ReadmeSetupTests {
    static let root = ReadmeDocument.url.deletingLastPathComponent()

    /// The packages a script's `REQUIRED_PACKAGES=(…)` lists (its first assignment, which may span lines, with a
    /// comment after any of them).
    static func requiredPackages(of script: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("scripts/\(script)"), encoding: .utf8)
        let start = try #require(text.range(of: "REQUIRED_PACKAGES=("))
        var packages: [String] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let list = code.split(separator: ")", maxSplits: 1, omittingEmptySubsequences: false)
            packages += (list.first ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            if list.count > 1 { break }
        }
        return packages
    }

    @Test(arguments: ["run.sh", "test.sh", "cluster.sh"])
    func theReadmeNamesEveryPackageAScriptInstalls(script: String) throws {
        let readme = try String(contentsOf: ReadmeDocument.url, encoding: .utf8)
        let setup = try #require(readme.range(of: "## Status")).lowerBound
        let paragraph = readme[..<setup]
        let packages = try Self.requiredPackages(of: script)
        #expect(!packages.isEmpty)
        for package in packages {
            let word = "(^|[\\s`])" + NSRegularExpression.escapedPattern(for: package) + "([\\s`]|$)"
            #expect(
                paragraph.range(of: word, options: .regularExpression) != nil,
                "README.md's setup says nothing of \(package), which scripts/\(script) installs")
        }
    }

    @Test func theBinarySaysTheChangelogsTopRelease() async throws {
        let changelog = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        let release = String(try #require(heading.dropFirst(3).split(separator: " ").first))
        let version = try await ServerProcess.run(["--version"])
        #expect(version.stdout == "viewhost \(release)\n")
        let server = try await ServerProcess(arguments: ["serve", "--port", "0", "--store", "memory"])
        let health = try await ProcessHTTP.request(server.port, "GET", "/healthz")
        #expect(health.text == #"{"status":"ok","version":"\#(release)"}"#)
        let document = try await ProcessHTTP.request(server.port, "GET", "/openapi.json")
        #expect((ProcessHTTP.json(document)?["info"] as? [String: Any])?["version"] as? String == release)
    }
}
