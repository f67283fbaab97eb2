import ViewHost
import ViewModelCore
import Foundation
import HTTPCore
import Logging
import Testing
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI

/// `Config/viewhost.json`, `Config/README.md` and the top-level `README.md` agree with `ConfigurationKey.all`, the one
/// table of keys: adding a key there without adding it to the files fails here, with the line to add.
struct ConfigurationFilesTests {
    /// The repository root: this file is `Tests/ViewHostTests/ConfigurationFilesTests.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let configFile = root.appendingPathComponent("Config/viewhost.json").path
    static let configReadme = root.appendingPathComponent("Config/README.md").path
    static let readme = root.appendingPathComponent("README.md").path

    @Test func configFileHoldsExactlyTheKeysOfTheTable() throws {
        let file = try Self.flattenedConfigFile()
        let expected = Set(ConfigurationKey.all.map(\.path))
        let actual = Set(file.keys)
        #expect(actual.subtracting(expected).isEmpty, "keys in Config/viewhost.json that the table lacks")
        for key in ConfigurationKey.all where !actual.contains(key.path) {
            Issue.record("Config/viewhost.json lacks \(key.path); add \"\(key.path)\": \(key.defaultJSON)")
        }
    }

    @Test(arguments: ConfigurationKey.all.map(\.path))
    func configFileHoldsTheDefault(path: String) throws {
        let key = try #require(ConfigurationKey.anyNamed(path))
        let expected = try JSONValue.parse(key.defaultJSON)
        #expect(expected.matches(key.kind), "defaultJSON \(key.defaultJSON) of \(path) is not a \(key.kind)")
        let actual = try #require(try Self.flattenedConfigFile()[path], "Config/viewhost.json lacks \(path)")
        #expect(actual == expected, "Config/viewhost.json has \(path) = \(actual), the default is \(key.defaultJSON)")
    }

    @Test(arguments: ConfigurationKey.all.map(\.path))
    func configReadmeHasARowWithTheEnvironmentVariableAndDefault(path: String) throws {
        let key = try #require(ConfigurationKey.anyNamed(path))
        let text = try String(contentsOfFile: Self.configReadme, encoding: .utf8)
        let row = text.split(separator: "\n").first { $0.hasPrefix("| `\(path)` |") }
        let expectedRow =
            "| `\(path)` | \(key.kind.rawValue) | `\(key.defaultJSON)` | `\(key.environmentName)` | | \(key.summary) |"
        guard let row else {
            Issue.record("Config/README.md has no row for \(path); add:\n\(expectedRow)")
            return
        }
        let hint = "expected a row like:\n\(expectedRow)"
        #expect(row.contains("`\(key.environmentName)`"), "row of \(path) lacks its variable; \(hint)")
        #expect(row.contains("| `\(key.defaultJSON)` |"), "row of \(path) lacks its default; \(hint)")
        #expect(row.contains("| \(key.kind.rawValue) |"), "row of \(path) lacks its type; \(hint)")
    }

    @Test func readmeListsEveryKey() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        for key in ConfigurationKey.all {
            #expect(text.contains("`\(key.path)`"), "README.md does not list the configuration key \(key.path)")
        }
    }

    @Test func loadingTheConfigFileGivesTheBuiltInDefaults() async throws {
        var loaded = try await AppConfiguration.seedLoad(from: .init(filePath: Self.configFile, fileIsRequired: true))
        // The features are the app's (their settings, at their defaults in the file, are checked by the features'
        // own tests); the rest is the server's.
        #expect(loaded.features.names == TestApp.seedFeatures.map(\.name))
        loaded.features = HostedFeatures()
        let defaults = AppConfiguration()
        #expect(loaded.http == defaults.http)
        #expect(loaded.logLevel == defaults.logLevel)
        // Every other part too, including ones added after this test was written.
        var loadedDump = ""
        var defaultsDump = ""
        dump(loaded, to: &loadedDump)
        dump(defaults, to: &defaultsDump)
        #expect(loadedDump == defaultsDump)
    }

    /// The file's leaf values by dotted path (`{"limits":{"maxBodyBytes":1}}` → `limits.maxBodyBytes`).
    private static func flattenedConfigFile() throws -> [String: JSONValue] {
        let data = try Data(contentsOf: URL(fileURLWithPath: configFile))
        let root = try JSONDecoder().decode(JSONValue.self, from: data)
        var leaves: [String: JSONValue] = [:]
        root.flatten(prefix: "", into: &leaves)
        return leaves
    }
}

/// A JSON value that keeps booleans and numbers apart, so `true` never equals `1`.
private enum JSONValue: Equatable, Decodable, CustomStringConvertible {
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    var description: String {
        switch self {
        case .bool(let value): "\(value)"
        case .number(let value): value.rounded() == value ? "\(Int(value))" : "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ","))]"
        case .object(let members): "{\(members.keys.sorted().joined(separator: ","))}"
        case .null: "null"
        }
    }

    /// Whether this value has the JSON shape `kind` asks for.
    func matches(_ kind: ConfigurationKey.Kind) -> Bool {
        switch (kind, self) {
        case (_, .null): true  // an optional key whose default is "not set", such as simulation.seed
        case (.integer, .number(let value)): value.rounded() == value
        case (.number, .number), (.boolean, .bool), (.string, .string): true
        case (.stringList, .array(let values)):
            values.allSatisfy { if case .string = $0 { true } else { false } }
        default: false
        }
    }

    /// Adds the leaves under this value to `leaves`; nested objects become dotted paths.
    func flatten(prefix: String, into leaves: inout [String: JSONValue]) {
        guard case .object(let members) = self else {
            leaves[prefix] = self
            return
        }
        for (name, value) in members {
            value.flatten(prefix: prefix.isEmpty ? name : "\(prefix).\(name)", into: &leaves)
        }
    }
}
