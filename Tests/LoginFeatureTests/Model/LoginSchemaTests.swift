import Foundation
import LoginAPI
import Testing

@testable import LoginFeature

/// The login feature's stored shape keeps a password's length, never its text (schema 2); what schema 1 stored (the
/// text, in the state and in every `passwordDidChange`) is brought up to date as it is read.
struct LoginSchemaTests {
    @Test func theStoredStateAndEventsHoldNoPasswordText() throws {
        var model = LoginModel.initial
        let event = LoginApp.event(for: .setPassword(value: "correct-horse"))
        _ = LoginEventRouter.route(event, to: &model)
        for stored in [try JSONEncoder().encode(model), try JSONEncoder().encode(event)] {
            #expect(!String(decoding: stored, as: UTF8.self).contains("correct-horse"))
        }
        #expect(model.passwordLength.units == 13)
        #expect(LoginApp.schemaVersion == 2)
    }

    @Test func aSchemaOneStateKeepsItsPasswordsLengthOnly() throws {
        let stored = #"{"username":"maruko","password":"secret99","loginSucceeded":true}"#
        let model = try JSONDecoder().decode(MigratedState.self, from: Data(stored.utf8)).model
        #expect(model == LoginModel(username: "maruko", passwordLength: PasswordLength(units: 8), loginSucceeded: true))
    }

    @Test(arguments: [
        (#"{"passwordDidChange":{"_0":"secret99"}}"#, LoginEvent.passwordDidChange(PasswordLength(units: 8))),
        (#"{"usernameDidChange":{"_0":"Maruko"}}"#, .usernameDidChange("Maruko")),
        (#"{"loginTouched":{}}"#, .loginTouched),
    ])
    func aSchemaOneEventKeepsAPasswordsLengthOnly(stored: String, expected: LoginEvent) throws {
        #expect(try JSONDecoder().decode(MigratedEvent.self, from: Data(stored.utf8)).event == expected)
    }

    /// A state read through the feature's migration from schema 1.
    private struct MigratedState: Decodable {
        let model: LoginModel
        init(from decoder: any Decoder) throws { model = try LoginApp.migrate(state: decoder, from: 1) }
    }

    /// An event read through the feature's migration from schema 1.
    private struct MigratedEvent: Decodable {
        let event: LoginEvent
        init(from decoder: any Decoder) throws { event = try LoginApp.migrate(event: decoder, from: 1) }
    }
}
