import ViewHostAPI
import ViewModelCore

/// The login feature as schema version 1 stored it: the password's text in the state and in `passwordDidChange`,
/// each change of a field a new version, as the login feature itself counts them.
enum LoginVersionOne: Feature {
    struct State: Codable, Equatable, Sendable {
        var username: String
        var password: String
        var loginSucceeded = false
    }

    enum Event: Codable, Equatable, Sendable {
        case usernameDidChange(String)
        case passwordDidChange(String)
        case loginTouched
    }

    struct Snapshot: FeatureSnapshot {
        static let feature = "login"
        let username: String
    }

    static func check(_ event: Event, in state: State) throws(EventRefusal) {}

    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<LoginVersionOne>) {
        let before = state
        switch event {
        case .usernameDidChange(let text) where text != state.username: (state.username, state.loginSucceeded) = (text, false)
        case .passwordDidChange(let text) where text.utf16.count != state.password.utf16.count:
            (state.password, state.loginSucceeded) = (text, false)
        case .loginTouched: state.loginSucceeded = (6...24).contains(state.username.count) && (6...24).contains(state.password.count)
        default: break
        }
        if state != before { context.markChanged() }
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(username: state.username) }

    static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }
}
