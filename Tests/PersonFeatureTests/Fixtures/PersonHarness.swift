import Foundation
import TestSupport
import PersonAPI
import ViewHostAPI
import ViewModelCore

@testable import PersonFeature

/// One person session on a manual scheduler, recording every snapshot it emits.
final class PersonHarness {
    let scheduler = ManualScheduler()
    let session: Session
    let recorder: RecordingListener<PersonApp>

    /// A session whose person feature shows dates in `timeZone` (the app layer passes the session's zone).
    init(timeZone: TimeZone = .gmt) {
        session = Session(
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: scheduler),
            settings: SessionSettings(timeZone: timeZone), random: .seeded(1),
            features: [InitialFeature(PersonApp.key, state: PersonApp.initialState)])
        recorder = RecordingListener(session: session, feature: PersonApp.key)
    }

    /// Sends client events.
    @discardableResult
    func send(_ events: PersonEvent...) -> SendReceipt? {
        try? session.send(events, to: PersonApp.key, source: .client)
    }

    /// The current snapshot.
    var snapshot: PersonSnapshot { session.viewModel(of: PersonApp.key)!.value }

    /// The current version.
    var version: Int { session.viewModel(of: PersonApp.key)!.version }
}
