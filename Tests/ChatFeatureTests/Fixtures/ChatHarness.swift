import Foundation
import TestSupport
import ViewModelCore

@testable import ChatFeature

/// One chat session on a manual scheduler, recording every snapshot it emits.
final class ChatHarness {
    let scheduler: ManualScheduler
    let session: Session
    let recorder: RecordingListener<ChatApp>

    /// A session with a seeded random source; `appear` is sent as the app layer does, unless told not to.
    init(
        seed: UInt64 = 1, configuration: ChatConfiguration = ChatConfiguration(), timeZone: TimeZone = .gmt,
        appear: Bool = true, start: Date = .fixture
    ) {
        scheduler = ManualScheduler(start: start)
        session = Session(
            id: .random(), token: .random(),
            environment: SessionEnvironment(
                scheduler: scheduler, random: .seeded(seed), timeZone: timeZone, logCapacity: 100_000),
            features: [SessionFeature(ChatApp.key, model: ChatApp(configuration: configuration))])
        recorder = RecordingListener(session: session, feature: ChatApp.key)
        if appear { session.send([.appear], to: ChatApp.key, source: .view) }
    }

    /// Sends client intents.
    @discardableResult
    func send(_ events: ChatAppEvent...) -> SendReceipt? {
        session.send(events, to: ChatApp.key, source: .client)
    }

    /// Moves simulated time on.
    func advance(seconds: Double) {
        scheduler.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// Appears and waits for John's chat to load (and forgets those snapshots).
    func loaded() -> ChatHarness {
        advance(seconds: 0.5)
        _ = recorder.drain()
        return self
    }

    /// The current snapshot.
    var snapshot: ChatSnapshot { session.viewModel(of: ChatApp.key)!.value }

    /// The current version.
    var version: Int { session.viewModel(of: ChatApp.key)!.version }

    /// The whole data-flow log.
    var log: [LogEntry] { session.log(after: 0).entries }

    /// Seconds since the session started.
    func seconds(of entry: LogEntry) -> Double {
        entry.at.timeIntervalSince(.fixture)
    }

    /// The chat screen view model of `contact`.
    func conversation(_ contact: String = "John") -> ChatViewModel? {
        snapshot.conversations[contact]
    }
}
