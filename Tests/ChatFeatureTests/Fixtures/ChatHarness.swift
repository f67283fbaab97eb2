import ChatAPI
import Foundation
import ViewHostAPI
import ViewHostTesting
import ViewModelCore

@testable import ChatFeature

/// One chat session in a ``TestHost`` (the library's in-process host, on a manual clock), with the shorthands the
/// chat's tests use.
final class ChatHarness {
    private(set) var host: TestHost
    /// What the tests read of the snapshots the session emitted.
    lazy var recorder = Recorder(harness: self)

    /// A session with a seeded random source; `appear` is sent as the app layer does, unless told not to.
    init(
        seed: UInt64 = 1, configuration: ChatConfiguration = ChatConfiguration(), timeZone: TimeZone = .gmt,
        appear: Bool = true, start: Date = .fixture
    ) {
        host = TestHost(
            ChatApp.self, state: ChatState(configuration: configuration),
            session: SessionSettings(timeZone: timeZone, logCapacity: 100_000), start: start, seed: seed)
        if appear { sendEvents([.intent(.appear)], source: .view) }
    }

    /// Sends client intents; nil when the session refused them.
    @discardableResult
    func send(_ intents: ChatIntent...) -> TestStep? {
        try? host.send(intents, to: ChatApp.key)
    }

    /// Sends events as they are, from `source`; nil when refused.
    @discardableResult
    func sendEvents(_ events: [ChatAppEvent], source: EventSource = .client) -> TestStep? {
        try? host.send(events, to: ChatApp.key, source: source)
    }

    /// Sends one client intent that the session must refuse, and returns why (nil when it was applied).
    func refusal(_ intent: ChatIntent) -> EventRefusal? {
        do {
            try host.send(intent, to: ChatApp.key)
            return nil
        } catch {
            guard case .refused(let refusal, _)? = error as? SessionRefusal else { return nil }
            return refusal
        }
    }

    /// The chat feature's state (for checks a snapshot cannot show).
    var state: ChatState { host.state(of: ChatApp.key) }

    /// Moves simulated time on, firing the timers that fall due.
    func advance(seconds: Double) {
        host.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// The timers not fired yet.
    var pendingTimerCount: Int { host.timers(of: ChatApp.key).count }

    /// Appears and waits for John's chat to load (and forgets those snapshots).
    func loaded() -> ChatHarness {
        advance(seconds: 0.5)
        _ = recorder.drain()
        return self
    }

    /// The current snapshot.
    var snapshot: ChatSnapshot { host.snapshot(of: ChatApp.key) }

    /// The current version.
    var version: Int { host.version(of: ChatApp.key) }

    /// The whole data-flow log.
    var log: [LogEntry] { host.log }

    /// Seconds since the session started.
    func seconds(of entry: LogEntry) -> Double {
        entry.at.timeIntervalSince(.fixture)
    }

    /// The chat screen view model of `contact`.
    func conversation(_ contact: String = "John") -> ChatViewModel? {
        snapshot.conversations[contact]
    }

    /// The snapshots the session emitted, and the ones since the last ``drain()``.
    struct Recorder {
        unowned let harness: ChatHarness
        private var drained = 0

        init(harness: ChatHarness) {
            self.harness = harness
        }

        /// The snapshots emitted since the last drain, oldest first.
        var snapshots: [ChatSnapshot] { Array(harness.host.snapshots(of: ChatApp.key).dropFirst(drained).map(\.snapshot)) }

        /// The version of each.
        var versions: [Int] { Array(harness.host.snapshots(of: ChatApp.key).dropFirst(drained).map(\.version)) }

        /// The snapshots emitted since the last drain.
        mutating func drain() -> [ChatSnapshot] {
            let new = snapshots
            drained += new.count
            return new
        }
    }
}
