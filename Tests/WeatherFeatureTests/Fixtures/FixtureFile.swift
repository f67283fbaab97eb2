import Foundation

/// Sample provider answers in `Fixtures/JSON/`, written after the providers' documented shapes.
enum FixtureFile {
    /// The bytes of `JSON/<name>.json`.
    static func bytes(_ name: String) -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "JSON"),
            let data = try? Data(contentsOf: url)
        else { fatalError("missing fixture JSON/\(name).json") }
        return Array(data)
    }
}
