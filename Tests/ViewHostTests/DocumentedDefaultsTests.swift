import Foundation
import Testing
import ViewHostJSON
import ViewModelCore

@testable import ViewHost

/// A server key's default is written twice: in the code that reads it (the value it falls back to) and in the key
/// table (`ConfigurationKey.server`, from which the docs and `Config/viewhost.json` are checked). A load with
/// nothing set falls back to every default; each must be the one the table documents.
struct DocumentedDefaultsTests {
    @Test func everyServerKeyFallsBackToTheDefaultItsTableDocuments() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-none-\(UUID()).json")
        let (_, defaults) = try await AppConfiguration.loadReportingDefaults(from: .init(filePath: missing.path))
        for key in ConfigurationKey.server {
            let documented = try JSONParser.parse(Array(key.defaultJSON.utf8))
            guard let applied = defaults[key.path] else {
                // A key whose documented default is null is read as "not set" by code of its own (no fallback).
                #expect(documented == .null, "\(key.path) documents \(key.defaultJSON) but no default was read")
                continue
            }
            #expect(
                applied == documented,
                "\(key.path): the code falls back to \(applied), the table says \(key.defaultJSON)")
        }
    }
}
