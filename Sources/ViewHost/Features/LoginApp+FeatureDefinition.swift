import LoginFeature
import LoginAPI
import ViewHostAPI
import ViewModelCore

extension FeatureDefinition {
    /// The login demo (seed 002): `setUsername[value]`, `setPassword[value]`, `login`, decoded as
    /// ``LoginIntent``s. Texts follow the session's locale (`zh-Hans` gives the original Chinese).
    static let login = FeatureDefinition.define(
        LoginApp.key, eventTypes: LoginIntent.types, initialState: { LoginApp.initialState }
    ) { type, fields throws(EventDecodingError) in
        let intent: LoginIntent
        switch type {
        case "setUsername":
            try fields.onlyFields(["value"])
            intent = .setUsername(value: try fields.string("value", limit: .name))
        case "setPassword":
            try fields.onlyFields(["value"])
            intent = .setPassword(value: try fields.string("value", limit: .name))
        default:
            intent = try fields.none(.login)
        }
        return LoginApp.event(for: intent)
    }
}
