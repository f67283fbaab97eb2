import Foundation
import LoginAPI
import ViewHostAPI
import ViewModelCore

/// The Observable/Observer login demo (seed 002, Luminixus/DataDrivenMVVM) as a pure state machine: two fields
/// checked as they are typed, an instruction line with the first failing rule, and a login button that only says
/// "Login succeeded". There is no credential check and no network, as in the original.
///
/// The session starts where the original controller's `initStates` leaves it: `maruko` / `1234`, so the first
/// snapshot already says the password is too short. Texts are in the session's language (its locale).
///
/// ```swift
/// var model = LoginApp.initialState
/// var context = FeatureContext<LoginApp>(now: .now)
/// LoginApp.apply(.passwordDidChange("123456"), to: &model, context: &context)
/// LoginApp.apply(.loginTouched, to: &model, context: &context)          // "Login succeeded (*^▽^*)"
/// ```
public enum LoginApp: Feature {
    /// The credentials as typed (the password as its length only) and the last login's outcome.
    public typealias State = LoginModel
    /// What the original controller's text fields and button reported.
    public typealias Event = LoginEvent
    /// What a client may post (`LoginIntent.types`).
    public typealias Intent = LoginIntent
    /// What a client reads: the fields, their validity, the instruction, and the form's labels and actions.
    public typealias Snapshot = LoginSnapshot

    /// The state of a new session: the original controller's `maruko` / `1234`.
    public static let initialState = LoginModel.initial

    /// 2: the password's length instead of its text, in the state and in `passwordDidChange` (version 1 kept the
    /// text in the store; it is migrated to its length as it is read).
    public static let schemaVersion = 2

    /// 1: a session stored with the password's text is still read (migrated to its length).
    public static let oldestMigratableVersion = 1

    /// A version 1 state: its password text is read and only its length kept.
    public static func migrate(state decoder: any Decoder, from version: Int) throws -> LoginModel {
        try LoginSchemaV1.Model(from: decoder).current
    }

    /// A version 1 event: a `passwordDidChange` text becomes its length; the others are unchanged.
    public static func migrate(event decoder: any Decoder, from version: Int) throws -> LoginEvent {
        try LoginSchemaV1.Event(from: decoder).current
    }

    /// A tap on the login button while it is disabled is refused (quirk fixed: the original's view model never
    /// checked `loginEnabled`; its disabled button did, and a server can be sent `login` at any time).
    public static func check(_ event: LoginEvent, in model: LoginModel) throws(EventRefusal) {
        guard case .loginTouched = event, !model.loginEnabled else { return }
        throw EventRefusal(
            reason: "The login button is disabled: the username and the password must each be 6 to 24 characters.",
            allowed: allowedIntents(in: model))
    }

    /// Applies one event; the version grows only when the model changed (an equal value or a repeated tap that
    /// changes nothing is only logged, as the original's `Observable` notified nobody then).
    public static func apply(_ event: LoginEvent, to model: inout LoginModel, context: inout FeatureContext<LoginApp>) {
        if LoginEventRouter.route(event, to: &model) { context.markChanged() }
    }

    /// The snapshot of `model`, in the session's language.
    public static func snapshot(of model: LoginModel, settings: SessionSettings) -> LoginSnapshot {
        LoginViewModelBuilder.build(for: model, texts: LoginTexts.forLocale(settings.locale))
    }

    /// The feature's event for a client's intent.
    public static func event(for intent: LoginIntent) -> LoginEvent {
        switch intent {
        case .setUsername(let value): .usernameDidChange(value)
        case .setPassword(let value): .passwordDidChange(PasswordLength(value))
        case .login: .loginTouched
        }
    }

    /// The intents the screen accepts now: the two fields always, the button while it is enabled.
    static func allowedIntents(in model: LoginModel) -> [LoginIntent.Kind] {
        model.loginEnabled ? LoginIntent.Kind.allCases : [.setUsername, .setPassword]
    }
}
