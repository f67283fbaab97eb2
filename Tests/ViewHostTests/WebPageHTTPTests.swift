import Foundation
import Testing
import TestSupport
import ViewModelCore

/// The page at `/` and its files: the markup, style and compiled script embedded from `Sources/ViewHost/Web/Resources`
/// (and each feature's renderer from its own target), every module the script imports served, all under the strict
/// Content-Security-Policy.
@Suite struct WebPageHTTPTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ViewHost/Web/Resources")

    @Test func thePageListsTheFeaturesAndLoadsItsModuleUnderTheCSP() async throws {
        try await TestApp.run { app in
            let page = try await app.request("GET", "/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
            #expect(page.text.contains(#"<main id="features" data-features="chat weather login person" data-contacts=""#))
            #expect(page.text.contains(#"<script type="module" src="/app.js"></script>"#))
            let script = try await app.request("GET", "/app.js")
            #expect(script.status == 200)
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.header("Cache-Control") == "no-cache")
            let app = try Data(contentsOf: Self.resources.appendingPathComponent("app.mjs"))
            #expect(script.text.hasPrefix(String(decoding: app, as: UTF8.self)), "the compiled module, as committed")
            for feature in ["chat", "weather", "login", "person"] {
                #expect(script.text.contains("ViewHost.renderers.\(feature) = "), "\(feature)'s renderer follows it")
            }
        }
    }

    /// The features that take contacts are named in `<main data-contacts>`, so the page offers its People card
    /// (invite someone, redeem a code) for them, and only then; those that can be shared in `<main data-shared>`,
    /// so it offers its Participants card (an invite link for the owner, joining by one) for them, and only then.
    @Test func thePageNamesTheFeaturesThatTakeContactsAndThoseThatCanBeShared() async throws {
        try await TestApp.run(ContactsHTTPTests.letters()) { app in
            let page = try await app.request("GET", "/")
            #expect(
                page.text.contains(
                    #"<main id="features" data-features="letters person" data-contacts="letters" data-shared="person"></main>"#
                ))
        }
    }

    /// Every module under `Resources/client` and `Resources/page` is served at its path, byte for byte, and every
    /// module the page imports (`from "./x.mjs"`, `from "../client/x.mjs"`) is one of them: a module added to the
    /// TypeScript sources and not to ``WebAssets`` fails here, not in a browser.
    @Test func everyModuleIsServedAndEveryImportResolves() async throws {
        var files: [String: Data] = [:]
        for directory in ["client", "page"] {
            let folder = Self.resources.appendingPathComponent(directory)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".mjs") {
                files["/\(directory)/\(name)"] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
        }
        #expect(files.count >= 10)
        try await TestApp.run { app in
            var imports: [String] = []
            for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
                let response = try await app.request("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.header("Content-Type") == "text/javascript; charset=utf-8")
                #expect(response.body == Array(bytes), "\(path) is served as committed")
                imports += Self.imports(of: response.text, at: path)
            }
            imports += Self.imports(of: try await app.request("GET", "/app.js").text, at: "/app.js")
            for path in Set(imports).sorted() {
                #expect(files[path] != nil, "an import of \(path), which is not served")
            }
            #expect(try await app.request("GET", "/client/nope.mjs").status == 404)
            let typesOnly = try await app.request("GET", "/client/types.mjs")
            #expect(typesOnly.status == 404, "a module of types only is not made")
        }
    }

    /// A renderer from embedded bytes is the renderer from their text.
    @Test func aRendererFromEmbeddedBytesIsTheRendererFromItsText() {
        let script = "ViewHost.renderers.notes = () => [];\n"
        let embedded = PageRenderer(script: Array(script.utf8), style: Array("#notes {}".utf8))
        #expect(embedded == PageRenderer(script: script, style: "#notes {}"))
        #expect(PageRenderer(script: Array(script.utf8)).style == "")
    }

    /// The paths a module's relative imports name, resolved against its own path.
    static func imports(of source: String, at path: String) -> [String] {
        source.matches(of: #/from "(\.\.?/[^"]+)"/#).map { match in
            var parts = path.split(separator: "/").dropLast().map(String.init)
            for part in match.output.1.split(separator: "/") {
                switch part {
                case ".": continue
                case "..": _ = parts.popLast()
                default: parts.append(String(part))
                }
            }
            return "/" + parts.joined(separator: "/")
        }
    }
}
