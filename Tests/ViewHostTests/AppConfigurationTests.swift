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

/// Loading configuration: flag > `VIEWHOST_*` environment > file > default, and every bad input becomes one
/// `ConfigurationError` naming the key or file, with its sysexits(3) code. The process environment is never read:
/// each test passes its own `environment:`.
struct AppConfigurationTests {
    @Test func defaultsApplyWhenNothingIsSet() async throws {
        let loaded = try await AppConfiguration.seedLoad(from: .init(filePath: Self.missingPath()))
        #expect(loaded.http == AppConfiguration().http)
        #expect(loaded.http.port == 8080)
        #expect(loaded.http.host == "127.0.0.1")
        #expect(loaded.logLevel == .info)
    }

    @Test func fileBeatsDefault() async throws {
        let file = try TemporaryFile(
            #"{"port": 1111, "limits": {"maxBodyBytes": 2048}, "timeouts": {"idleSeconds": 0.5}}"#)
        defer { file.remove() }
        let loaded = try await AppConfiguration.seedLoad(from: .init(filePath: file.path))
        #expect(loaded.http.port == 1111)
        #expect(loaded.http.limits.maxBodyBytes == 2048)
        #expect(loaded.http.timeouts.idle == .milliseconds(500))
        #expect(loaded.http.host == "127.0.0.1", "keys the file leaves out keep their default")
    }

    @Test func environmentBeatsFile() async throws {
        let file = try TemporaryFile(#"{"port": 1111, "logLevel": "error", "limits": {"maxBodyBytes": 2048}}"#)
        defer { file.remove() }
        let environment = ["VIEWHOST_PORT": "2222", "VIEWHOST_LIMITS_MAX_BODY_BYTES": "4096"]
        let loaded = try await AppConfiguration.seedLoad(from: .init(environment: environment, filePath: file.path))
        #expect(loaded.http.port == 2222)
        #expect(loaded.http.limits.maxBodyBytes == 4096)
        #expect(loaded.logLevel == .error, "keys the environment leaves out come from the file")
    }

    @Test func flagBeatsEnvironmentAndFile() async throws {
        let file = try TemporaryFile(#"{"port": 1111, "host": "localhost", "logLevel": "error"}"#)
        defer { file.remove() }
        let loaded = try await AppConfiguration.load(
            from: .init(
                flags: ["port": "3333", "logLevel": "debug"],
                environment: ["VIEWHOST_PORT": "2222", "VIEWHOST_LOG_LEVEL": "warning"], filePath: file.path))
        #expect(loaded.http.port == 3333)
        #expect(loaded.logLevel == .debug)
        #expect(loaded.http.host == "localhost", "keys no flag sets come from the environment or the file")
    }

    @Test func unrelatedEnvironmentVariablesAreIgnored() async throws {
        let environment = ["PORT": "1", "HOST": "nowhere", "VIEWHOST_BINARY": "/bin/false"]
        let loaded = try await AppConfiguration.load(
            from: .init(environment: environment, filePath: Self.missingPath()))
        #expect(loaded.http == AppConfiguration().http)
    }

    @Test(arguments: [
        (#"{"limits": {"maxBodyByte": 10}}"#, "limits.maxBodyByte"),
        (#"{"prot": 8080}"#, "prot"),
        (#"{"server": {"eventLoops": 1, "threads": 2}}"#, "server.threads"),
    ])
    func unknownKeyInTheFileIsNamed(json: String, key: String) async throws {
        let file = try TemporaryFile(json)
        defer { file.remove() }
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.seedLoad(from: .init(filePath: file.path))
        }
        #expect(error == .unknownKey(key: key, path: file.path))
        #expect(error?.exitCode == 78)
        #expect(error?.description.contains(key) == true)
    }

    @Test(arguments: [#"{"port": 8080,"#, "", "[1, 2]", #""just a string""#, "port = 8080"])
    func malformedFileIsRejected(json: String) async throws {
        let file = try TemporaryFile(json)
        defer { file.remove() }
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.seedLoad(from: .init(filePath: file.path, fileIsRequired: true))
        }
        guard case .malformedFile(let path, _) = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))")
            return
        }
        #expect(path == file.path)
        #expect(error?.exitCode == 78)
    }

    @Test func requiredMissingFileIsUnreadable() async throws {
        let path = Self.missingPath()
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.seedLoad(from: .init(filePath: path, fileIsRequired: true))
        }
        guard case .unreadableFile(let named, _) = error else {
            Issue.record("expected unreadableFile, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(error?.exitCode == 66)
        #expect(error?.description.contains(path) == true)
    }

    @Test func optionalMissingFileFallsBackToDefaults() async throws {
        let loaded = try await AppConfiguration.seedLoad(from: .init(filePath: Self.missingPath(), fileIsRequired: false))
        #expect(loaded.http == AppConfiguration().http)
    }

    @Test func wrongTypeInTheEnvironmentNamesKeyAndVariable() async throws {
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.load(
                from: .init(environment: ["VIEWHOST_PORT": "abc"], filePath: Self.missingPath()))
        }
        guard case .invalidValue(let key, let source, _) = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(key == "port")
        #expect(source.contains("VIEWHOST_PORT"))
        #expect(error?.exitCode == 78)
        let line = error?.description ?? ""
        #expect(line.contains("port") && line.contains("VIEWHOST_PORT") && !line.contains("\n"))
    }

    @Test func wrongTypeInTheFileNamesKeyAndFile() async throws {
        let file = try TemporaryFile(#"{"timeouts": {"idleSeconds": "soon"}}"#)
        defer { file.remove() }
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.seedLoad(from: .init(filePath: file.path))
        }
        guard case .invalidValue(let key, let source, _) = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(key == "timeouts.idleSeconds")
        #expect(source == file.path)
        #expect(error?.exitCode == 78)
    }

    /// Out-of-range values, given through the environment and through the file.
    @Test(
        arguments: [("port", "70000"), ("limits.maxBodyBytes", "-1"), ("timeouts.idleSeconds", "0")], Origin.allCases)
    func outOfRangeValueIsInvalid(value: (path: String, text: String), origin: Origin) async throws {
        let key = try #require(ConfigurationKey.anyNamed(value.path))
        let file = try TemporaryFile(origin == .file ? Self.nestedJSON(path: value.path, literal: value.text) : "{}")
        defer { file.remove() }
        let environment = origin == .environment ? [key.environmentName: value.text] : [:]
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.seedLoad(from: .init(environment: environment, filePath: file.path))
        }
        guard case .invalidValue(let named, let source, _) = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(named == value.path)
        #expect(source.contains(origin == .file ? file.path : key.environmentName))
        #expect(error?.exitCode == 78)
    }

    @Test func badFlagValueIsInvalid() async throws {
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.seedLoad(from: .init(flags: ["logLevel": "loud"], filePath: Self.missingPath()))
        }
        guard case .invalidValue(let key, _, _) = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(key == "logLevel")
        #expect(error?.exitCode == 78)
    }

    /// `ConfigurationKey.environmentName` (what the docs and error messages name) is the variable the loader reads.
    @Test(arguments: ConfigurationKey.all.map(\.path))
    func everyKeyIsReadFromItsDocumentedEnvironmentVariable(path: String) async throws {
        let key = try #require(ConfigurationKey.anyNamed(path))
        var environment = [key.environmentName: try Self.environmentText(of: key)]
        // Keys whose values have a shape, and what they need beside them.
        if path == "cluster.secret" { environment[key.environmentName] = "0123456789abcdef" }
        if path == "cluster.internalAddress" {
            environment[key.environmentName] = "127.0.0.1:0"
            environment["VIEWHOST_CLUSTER_SECRET"] = "0123456789abcdef"
            environment["VIEWHOST_STORE_KIND"] = "postgres"
            environment["VIEWHOST_STORE_DATABASE_URL"] = "postgres://viewhost@db/viewhost"
        }
        // The TLS paths go together; the partner gets a value too.
        if let partner = ["tls.certificatePath": "tls.keyPath", "tls.keyPath": "tls.certificatePath"][path],
            let other = ConfigurationKey.anyNamed(partner)
        {
            environment[other.environmentName] = "x"
        }
        await #expect(throws: Never.self, "\(key.environmentName) is not what the loader reads for \(path)") {
            _ = try await AppConfiguration.seedLoad(from: .init(environment: environment, filePath: Self.missingPath()))
        }
    }

    @Test func oneTLSPathWithoutTheOtherIsInvalid() async throws {
        let error = await #expect(throws: ConfigurationError.self) {
            try await AppConfiguration.load(
                from: .init(flags: ["tls.certificatePath": "cert.pem"], filePath: Self.missingPath()))
        }
        guard case .invalidValue(let key, _, let reason) = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(key == "tls.keyPath")
        #expect(reason.contains("tls.certificatePath"))
        #expect(error?.exitCode == 78)
    }

    @Test func corsOriginsFromTheEnvironmentAreCommaSeparatedAndBlankMeansNone() async throws {
        func load(_ text: String) async throws -> [String] {
            let environment = ["VIEWHOST_CORS_ALLOWED_ORIGINS": text]
            return try await AppConfiguration.seedLoad(from: .init(environment: environment, filePath: Self.missingPath()))
                .cors.allowedOrigins
        }
        #expect(try await load("") == [])
        #expect(try await load("https://a.example, http://b.example:8080") == ["https://a.example", "http://b.example:8080"])
        await #expect(throws: ConfigurationError.self) { _ = try await load("ftp://nope") }
    }

    @Test func trustedProxiesAreAddressesOrRangesAndAnythingElseIsNamed() async throws {
        func load(_ text: String) async throws -> [String] {
            let environment = ["VIEWHOST_PROXY_TRUSTED": text]
            return try await AppConfiguration.seedLoad(from: .init(environment: environment, filePath: Self.missingPath()))
                .http.trustedProxies.ranges.map(\.description)
        }
        #expect(try await load("") == [])
        #expect(try await load("127.0.0.1, 10.0.0.0/8,fd00::/8") == ["127.0.0.1", "10.0.0.0/8", "fd00::/8"])
        do {
            _ = try await load("127.0.0.1, proxy.example")
            Issue.record("a name was taken as a trusted proxy")
        } catch let error as ConfigurationError {
            #expect(error.exitCode == 78)
            #expect("\(error)".contains("proxy.trusted") && "\(error)".contains("proxy.example"), "\(error)")
        }
    }

    @Test func environmentNamesAreUpperSnakeCaseOfThePath() {
        #expect(ConfigurationKey.anyNamed("port")?.environmentName == "VIEWHOST_PORT")
        #expect(ConfigurationKey.anyNamed("logLevel")?.environmentName == "VIEWHOST_LOG_LEVEL")
        #expect(ConfigurationKey.anyNamed("limits.maxBodyBytes")?.environmentName == "VIEWHOST_LIMITS_MAX_BODY_BYTES")
        let names = ConfigurationKey.all.map(\.environmentName)
        #expect(Set(names).count == names.count, "two keys share an environment variable")
    }

    // MARK: - Fixtures

    /// Where a value comes from in ``outOfRangeValueIsInvalid(value:origin:)``.
    enum Origin: CaseIterable, Sendable {
        case environment, file
    }

    /// A path that does not exist.
    static func missingPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-missing-\(UUID()).json").path
    }

    /// A valid environment value for `key`: its default as an environment variable spells it.
    static func environmentText(of key: ConfigurationKey) throws -> String {
        let value = try JSONSerialization.jsonObject(with: Data(key.defaultJSON.utf8), options: .fragmentsAllowed)
        switch value {
        case let text as String: return text
        case let list as [String]: return list.joined(separator: ",")
        case is NSNull:
            switch key.kind {
            case .integer, .number: return "1"
            case .boolean: return "true"
            case .string, .stringList: return "x"
            }
        default: return key.defaultJSON
        }
    }

    /// `{"a": {"b": LITERAL}}` for the path `a.b`.
    static func nestedJSON(path: String, literal: String) -> String {
        path.split(separator: ".").reversed().reduce(literal) { inner, name in "{\"\(name)\": \(inner)}" }
    }
}

/// A JSON file in the temporary directory, unique per test, so tests can run in parallel.
private struct TemporaryFile {
    let path: String

    init(_ contents: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-config-\(UUID()).json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The keys of issue 16: rate limits and the log's format and access lines.
struct AbuseAndLogConfigurationTests {
    @Test func rateLimitsAndLogSettingsLoadFromTheEnvironment() async throws {
        let environment = [
            "VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT": "5", "VIEWHOST_LIMITS_EVENTS_PER_SECOND_PER_SESSION": "0",
            "VIEWHOST_LOG_FORMAT": "json", "VIEWHOST_LOG_ACCESS": "false",
        ]
        let loaded = try await AppConfiguration.load(
            from: .init(environment: environment, filePath: "/nonexistent/viewhost.json"))
        #expect(loaded.rateLimits.sessionsPerMinutePerClient == 5)
        #expect(loaded.rateLimits.eventsPerSecondPerSession == 0)
        #expect(loaded.log.format == .json)
        #expect(loaded.log.access == false)
    }

    @Test func defaultsAreTheDocumentedOnes() async throws {
        let loaded = try await AppConfiguration.seedLoad(from: .init(filePath: "/nonexistent/viewhost.json"))
        #expect(loaded.rateLimits.sessionsPerMinutePerClient == 600)
        #expect(loaded.rateLimits.eventsPerSecondPerSession == 200)
        #expect(loaded.log.format == .text)
        #expect(loaded.log.access == true)
    }

    @Test(arguments: [
        ("log.format", "xml", "expected text or json"),
        ("limits.sessionsPerMinutePerClient", "-1", "outside"),
        ("limits.eventsPerSecondPerSession", "many", "expected an integer"),
    ])
    func badValuesAreRefusedWithTheKey(key: String, value: String, reason: String) async throws {
        do {
            _ = try await AppConfiguration.load(
                from: .init(flags: [key: value], filePath: "/nonexistent/viewhost.json"))
            Issue.record("\(key)=\(value) was accepted")
        } catch {
            #expect("\(error)".contains(key), "\(error)")
            #expect("\(error)".contains(reason) || "\(error)".contains("expected"), "\(error)")
        }
    }

    /// An integer and a number are refused alike: text that does not read says what was expected, a value out of
    /// range names the range, each with the key and where the value came from.
    @Test(arguments: [
        ("limits.maxHeaderCount", "VIEWHOST_LIMITS_MAX_HEADER_COUNT", "many", "expected an integer"),
        ("limits.maxHeaderCount", "VIEWHOST_LIMITS_MAX_HEADER_COUNT", "0", "0 is outside 1...10000"),
        ("simulation.speed", "VIEWHOST_SIMULATION_SPEED", "fast", "expected a number"),
        ("simulation.speed", "VIEWHOST_SIMULATION_SPEED", "0", "0.0 is outside 0.001...1000000.0"),
    ])
    func integersAndNumbersAreRefusedWithTheSameWords(key: String, variable: String, value: String, reason: String)
        async throws
    {
        do {
            _ = try await AppConfiguration.load(
                from: .init(environment: [variable: value], filePath: "/nonexistent/viewhost.json"))
            Issue.record("\(key)=\(value) was accepted")
        } catch {
            #expect(error == .invalidValue(key: key, source: "environment \(variable)", reason: reason), "\(error)")
        }
    }
}
