import Foundation
import ViewModelCore

/// The Observable/Observer login demo (seed 002, Luminixus/DataDrivenMVVM) for one session: two fields checked
/// as they are typed, an instruction line with the first failing rule, and a login button that only says
/// "Login succeeded". There is no credential check and no network, as in the original.
///
/// The session starts where the original controller's `initStates` leaves it: `maruko` / `1234`, so the first
/// snapshot already says the password is too short. Texts are in the session's language, chosen once at creation
/// (a session's locale never changes).
///
/// ```swift
/// let session = Session(id: .random(), token: .random(), environment: environment,
///                       features: [SessionFeature(LoginApp.key, model: LoginApp(locale: "zh-Hans"))])
/// session.send([.passwordDidChange("123456"), .loginTouched], to: LoginApp.key)   // "登录成功(*^▽^*)"
/// ```
public final class LoginApp: FeatureModel {
    public typealias Event = LoginEvent
    public typealias Snapshot = LoginSnapshot

    /// The feature's key: `login`.
    public static let key = FeatureKey<LoginApp>("login")

    private let texts: LoginTexts
    private var model = LoginModel.initial

    /// Creates the login screen of one session, in its initial `maruko` / `1234` state.
    /// - Parameter locale: The session's locale identifier; `zh-Hans` (and `zh_Hans`, `zh-Hans-CN`…) gives the
    ///   original's Chinese texts, anything else English.
    public init(locale: String = "en_US") {
        texts = LoginTexts.forLocale(locale)
    }

    /// Applies one event; the version grows only when the model changed (an equal value or a repeated tap that
    /// changes nothing is only logged, as the original's `Observable` notified nobody then).
    public func apply(_ event: LoginEvent, context: inout FeatureContext<LoginEvent>) {
        if LoginEventRouter.route(event, to: &model) { context.markChanged() }
    }

    /// The snapshot of the current state.
    public func makeViewModel() -> LoginSnapshot {
        LoginViewModelBuilder.build(for: model, texts: texts)
    }
}
