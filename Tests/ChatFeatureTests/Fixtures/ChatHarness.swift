import Foundation
import TestSupport
import ChatAPI
import ViewHostAPI
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
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: scheduler),
            settings: SessionSettings(timeZone: timeZone, logCapacity: 100_000), random: .seeded(seed),
            features: [InitialFeature(ChatApp.key, state: ChatState(configuration: configuration))])
        recorder = RecordingListener(session: session, feature: ChatApp.key)
        if appear { _ = try? session.send([.intent(.appear)], to: ChatApp.key, source: .view) }
    }

    /// Sends client intents; nil when the session refused them.
    @discardableResult
    func send(_ intents: ChatIntent...) -> SendReceipt? {
        try? session.send(intents.map { .intent($0) }, to: ChatApp.key, source: .client)
    }

    /// Sends one client intent that the session must refuse, and returns why (nil when it was applied).
    func refusal(_ intent: ChatIntent) -> EventRefusal? {
        do {
            try session.send([.intent(intent)], to: ChatApp.key, source: .client)
            return nil
        } catch {
            guard case .refused(let refusal, _) = error else { return nil }
            return refusal
        }
    }

    /// The chat feature's state (for checks a snapshot cannot show).
    var state: ChatState { session.core.state(of: ChatApp.key)! }

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
