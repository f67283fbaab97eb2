import Foundation
import TestSupport
import LoginAPI
import ViewHostAPI
import ViewModelCore

@testable import LoginFeature

/// One login session on a manual scheduler, recording every snapshot it emits.
final class LoginHarness {
    let scheduler = ManualScheduler()
    let session: Session
    let recorder: RecordingListener<LoginApp>

    /// A session whose login feature uses `locale` (the app layer passes the session's locale to the model).
    init(locale: String = "en_US") {
        session = Session(
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: scheduler),
            settings: SessionSettings(locale: locale), random: .seeded(1),
            features: [InitialFeature(LoginApp.key, state: LoginApp.initialState)])
        recorder = RecordingListener(session: session, feature: LoginApp.key)
    }

    /// Sends client events.
    @discardableResult
    func send(_ events: LoginEvent...) -> SendReceipt? {
        try? session.send(events, to: LoginApp.key, source: .client)
    }

    /// The current snapshot.
    var snapshot: LoginSnapshot { session.viewModel(of: LoginApp.key)!.value }

    /// The current version.
    var version: Int { session.viewModel(of: LoginApp.key)!.version }

    /// The recorded snapshots, reduced to what a reader of the screen sees change.
    var seen: [LoginLine] { recorder.snapshots.map(LoginLine.init) }
}

/// The parts of a login snapshot that events change, for comparing sequences at a glance.
struct LoginLine: Equatable, CustomStringConvertible {
    var username: String
    var passwordLength: Int
    var loginEnabled: Bool
    var key: LoginInstruction?
    var instruction: String

    init(_ username: String, _ passwordLength: Int, _ loginEnabled: Bool, _ key: LoginInstruction?, _ text: String) {
        self.username = username
        self.passwordLength = passwordLength
        self.loginEnabled = loginEnabled
        self.key = key
        self.instruction = text
    }

    init(_ snapshot: LoginSnapshot) {
        self.init(
            snapshot.username, snapshot.passwordLength, snapshot.loginEnabled, snapshot.instructionKey,
            snapshot.instruction)
    }

    var description: String {
        "(\(username), \(passwordLength), \(loginEnabled), \(key?.rawValue ?? "nil"), \(instruction))"
    }
}
