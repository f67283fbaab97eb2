import Foundation
import LoginAPI
import Testing
import ViewHostAPI
import ViewHostJSON
import ViewHostTesting
import ViewModelCore

@testable import LoginFeature

/// `StoredMigration` reads what schema version 1 of the login feature stored (the password's text, in the state and
/// in every `passwordDidChange`) as this build loads it (its length only, schema version 2), through the stores' own
/// code: a stored state, stored events, and a journal export written by version 1.
struct StoredMigrationTests {
    static let start = Date(timeIntervalSince1970: 1_795_442_400)
    static let importedAt = start.addingTimeInterval(3_600)

    @Test func aVersionOneStateIsLoadedWithItsPasswordsLengthOnly() throws {
        let stored = #"{"username":"maruko","password":"secret99","loginSucceeded":true}"#
        let model = try StoredMigration.state(of: LoginApp.self, stored: Data(stored.utf8), version: 1)
        #expect(model == LoginModel(username: "maruko", passwordLength: PasswordLength(units: 8), loginSucceeded: true))

        let value = JSONValue.object([("username", .string("maruko")), ("password", .string("secret99")), ("loginSucceeded", .bool(true))])
        #expect(try StoredMigration.state(of: LoginApp.self, stored: value, version: 1) == model)
    }

    @Test func aStateOfTheCurrentVersionIsReadAsItIs() throws {
        let stored = #"{"username":"maruko","passwordLength":8,"loginSucceeded":false}"#
        let model = try StoredMigration.state(of: LoginApp.self, stored: Data(stored.utf8), version: 2)
        #expect(model == LoginModel(username: "maruko", passwordLength: PasswordLength(units: 8), loginSucceeded: false))
    }

    @Test func versionOneEventsAreReadWithThePasswordsLengthOnly() throws {
        let stored = #"[{"usernameDidChange":{"_0":"Maruko"}},{"passwordDidChange":{"_0":"secret99"}},{"loginTouched":{}}]"#
        let events = try StoredMigration.events(of: LoginApp.self, stored: Data(stored.utf8), version: 1)
        #expect(events == [.usernameDidChange("Maruko"), .passwordDidChange(PasswordLength(units: 8)), .loginTouched])
    }

    @Test func aStateAVersionDoesNotHoldNamesTheMemberAndTheVersion() throws {
        // Version 1 had the password's text: a state without it cannot be migrated.
        let stored = #"{"username":"maruko","passwordLength":8,"loginSucceeded":false}"#
        let error = try #require(throws: StoredFeatureError.self) {
            try StoredMigration.state(of: LoginApp.self, stored: Data(stored.utf8), version: 1)
        }
        #expect(error == StoredFeatureError(feature: "login", field: "state.password", storedVersion: 1, currentVersion: 2, reason: "is missing"))
        #expect(error.description.hasSuffix("(migrating it to schema version 2 failed)"))
    }

    @Test func aVersionTheFeatureDoesNotReadIsRefused() throws {
        let stored = Data(#"{"username":"maruko","passwordLength":8,"loginSucceeded":false}"#.utf8)
        #expect(throws: SchemaError.newer(feature: "login", stored: 3, current: 2)) {
            try StoredMigration.state(of: LoginApp.self, stored: stored, version: 3)
        }
        #expect(throws: StoredMigrationError.notASchemaVersion(0)) {
            try StoredMigration.state(of: LoginApp.self, stored: stored, version: 0)
        }
        #expect(throws: StoredMigrationError.notASchemaVersion(-1)) {
            try StoredMigration.events(of: LoginApp.self, stored: Data("[]".utf8), version: -1)
        }
    }

    @Test func inputThatIsNotStoredJSONIsRefusedSayingWhat() throws {
        let state = try #require(throws: StoredMigrationError.self) {
            try StoredMigration.state(of: LoginApp.self, stored: Data(#"{"username":"maruko","#.utf8), version: 1)
        }
        guard case .notJSON(let what, _) = state else { Issue.record("\(state)"); return }
        #expect(what == "the stored state")
        #expect(state.description.hasPrefix("the stored state is not JSON of the kind stored: "))
        // One JSON value and nothing after it: the slot around it cannot be changed from inside.
        #expect(throws: StoredMigrationError.self) {
            try StoredMigration.state(
                of: LoginApp.self, stored: Data(#"{"username":"a","password":"b","loginSucceeded":true},"schema":2"#.utf8), version: 1)
        }
        #expect(throws: StoredMigrationError.notJSON(what: "the stored events", reason: "expected an array of events")) {
            try StoredMigration.events(of: LoginApp.self, stored: Data(#"{"loginTouched":{}}"#.utf8), version: 1)
        }
    }

    @Test func aVersionOneJournalExportIsImportedMigrated() throws {
        let export = try Self.versionOneExport()
        let journal = try StoredMigration.journal(of: LoginApp.self, export: export, importedAt: Self.importedAt)
        #expect(journal.base == LoginModel(username: "maruko", passwordLength: PasswordLength(units: 4), loginSucceeded: false))
        #expect(journal.state == LoginModel(username: "marukochan", passwordLength: PasswordLength(units: 8), loginSucceeded: true))
        #expect(journal.events == [.usernameDidChange("marukochan"), .passwordDidChange(PasswordLength(units: 8)), .loginTouched])
        // No password's text survives the import.
        #expect(!"\(journal.state) \(journal.events)".contains("secret99"))
    }

    @Test func anExportThatDoesNotReadBackNamesItsLine() throws {
        let export = try Self.versionOneExport()
        let lines = export.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let cut = Array(lines.prefix(2).joined(separator: [UInt8(ascii: "\n")]))
        let error = try #require(throws: JournalImportError.self) {
            try StoredMigration.journal(of: LoginApp.self, export: cut, importedAt: Self.importedAt)
        }
        #expect(error.line == 2)
        #expect(error.reason.contains("cut short"))
        #expect(throws: StoredMigrationError.featureNotInExport(feature: "tally", features: ["login"])) {
            try StoredMigration.journal(
                of: Tally.self, export: export, otherFeatures: [LoginApp.self], importedAt: Self.importedAt)
        }
    }

    /// A session of version 1 of the login feature (``LoginVersionOne``), exported: a new username, a password
    /// and a tap on the button, a second apart.
    static func versionOneExport() throws -> [UInt8] {
        var core = SessionCore(
            settings: SessionSettings(), random: .seeded(1),
            features: [InitialFeature(LoginVersionOne.key, state: LoginVersionOne.State(username: "maruko", password: "1234"))])
        var writer = try JournalExportWriter(
            session: SessionID("login"), createdAt: start, exportedAt: importedAt, base: core, number: 0)
        var bytes = writer.header
        let events: [LoginVersionOne.Event] = [.usernameDidChange("marukochan"), .passwordDidChange("secret99"), .loginTouched]
        for (index, event) in events.enumerated() {
            let input = SessionInput.submission(
                feature: "login", at: start.addingTimeInterval(Double(index + 1)),
                events: try core.encodeEvents([event], of: "login"), eventIDs: [nil], key: nil, fingerprint: nil)
            try core.replay(input)
            bytes += try writer.line(for: JournalRecord(number: index + 1, input: input))
        }
        return bytes + (try writer.end())
    }
}
