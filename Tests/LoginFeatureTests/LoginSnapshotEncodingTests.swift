import Foundation
import Testing
import LoginAPI
import ViewHostAPI
import ViewModelCore

@testable import LoginFeature

/// The snapshot's JSON: every key, nulls where there is nothing, and never the password.
struct LoginSnapshotEncodingTests {
    private func json(_ snapshot: LoginSnapshot) throws -> (object: [String: Any], text: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.userInfo[.actionHref] = "/v1/sessions/ID/login/events"
        let data = try encoder.encode(snapshot)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (object, String(decoding: data, as: UTF8.self))
    }

    @Test func initialSnapshotHasEveryKey() throws {
        let (object, _) = try json(LoginViewModelBuilder.build(for: .initial, texts: .english))
        #expect(
            Set(object.keys) == [
                "username", "passwordLength", "usernameValid", "passwordValid", "loginEnabled", "instruction",
                "instructionKey", "labels", "colors", "actions",
            ])
        #expect(object["username"] as? String == "maruko")
        #expect(object["passwordLength"] as? Int == 4)
        #expect(object["instructionKey"] as? String == "password.tooShort")
        let labels = try #require(object["labels"] as? [String: String])
        #expect(Set(labels.keys) == ["username", "password", "login", "usernamePlaceholder", "passwordPlaceholder"])
        let colors = try #require(object["colors"] as? [String: String])
        #expect(Set(colors.keys) == ["usernameField", "passwordField", "loginButton", "loginTitle", "instruction"])
    }

    @Test func passwordIsNeverEchoed() throws {
        let (object, text) = try json(LoginViewModelBuilder.build(for: .make(password: "s3cr3t-pw"), texts: .english))
        #expect(!text.contains("s3cr3t"))
        #expect(object["password"] == nil)
        #expect(object["passwordLength"] as? Int == 9)
    }

    @Test func noInstructionEncodesAnEmptyTextAndANullKey() throws {
        let (object, _) = try json(LoginViewModelBuilder.build(for: .make(), texts: .english))
        #expect(object["instruction"] as? String == "")
        #expect(object["instructionKey"] is NSNull)
    }

    @Test func actionsArePostableWithPlaceholders() throws {
        let (object, _) = try json(LoginViewModelBuilder.build(for: .initial, texts: .english))
        let actions = try #require(object["actions"] as? [String: [String: Any]])
        #expect((actions["setUsername"]?["body"] as? [String: String]) == ["type": "setUsername", "value": "{value}"])
        #expect((actions["setPassword"]?["body"] as? [String: String]) == ["type": "setPassword", "value": "{value}"])
        #expect((actions["login"]?["body"] as? [String: String]) == ["type": "login"])
        #expect(actions["login"]?["enabled"] as? Bool == false)
        #expect(actions["login"]?["href"] as? String == "/v1/sessions/ID/login/events")
        #expect(actions["setUsername"]?["enabled"] == nil)
    }
}
