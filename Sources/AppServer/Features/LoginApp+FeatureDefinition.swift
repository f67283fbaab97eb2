import LoginFeature
import ViewModelCore

extension FeatureDefinition {
    /// The login demo (seed 002): `setUsername[value]`, `setPassword[value]`, `login`. Texts follow the session's
    /// locale (`zh-Hans` gives the original Chinese).
    static let login = FeatureDefinition.define(
        LoginApp.key, eventTypes: ["setUsername", "setPassword", "login"],
        make: { settings in LoginApp(locale: settings.locale) }
    ) { type, fields throws(EventDecodingError) in
        switch type {
        case "setUsername":
            try fields.onlyFields(["value"])
            return .usernameDidChange(try fields.string("value", maxLength: 256))
        case "setPassword":
            try fields.onlyFields(["value"])
            return .passwordDidChange(try fields.string("value", maxLength: 256))
        default:
            try fields.onlyFields([])
            return .loginTouched
        }
    }
}
