@testable import AppServer
import Foundation
import Synchronization
import Testing

/// Regression tests for two races in `StreamSubscriber` that the loopback stream tests hit only under load
/// (see StreamHTTPTests and StreamLimitsHTTPTests): a cancel that comes before the wait, and a change that
/// comes together with a heartbeat.
@Suite(.timeLimit(.minutes(1)))
struct StreamSubscriberTests {
    /// `next` on an already cancelled task returns `.cancelled` instead of waiting for a change that may never come.
    @Test func cancelBeforeWaitingEndsTheWait() async throws {
        for _ in 0..<200 {
            let subscriber = StreamSubscriber(features: ["chat"])
            let result = SignalBox()
            let task = Task { result.set(await subscriber.next(heartbeat: .seconds(60))) }
            task.cancel()
            let deadline = ContinuousClock.now.advanced(by: .seconds(2))
            while result.value == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            let outcome = result.value
            #expect(outcome == .cancelled, "a cancelled next() still waits")
            if outcome != .cancelled {
                subscriber.markChanged(["chat"])  // frees the hung task
                return
            }
        }
    }

    /// A change reported while the heartbeat fires is written in the next round, never dropped.
    @Test func aChangeRacingTheHeartbeatStaysPending() async {
        let subscriber = StreamSubscriber(features: ["chat"])
        for round in 0..<2000 {
            async let signal = subscriber.next(heartbeat: .microseconds(50))
            await Task.yield()
            subscriber.markChanged(["chat"])
            if await signal == .heartbeat {
                let next = await subscriber.next(heartbeat: .seconds(2))
                #expect(next == .changed(["chat"]), "round \(round): the change was lost")
                if next != .changed(["chat"]) { return }
            }
        }
    }

    /// Where a task leaves its signal, read by polling.
    private final class SignalBox: Sendable {
        private let signal = Mutex<StreamSubscriber.Signal?>(nil)
        var value: StreamSubscriber.Signal? { signal.withLock { $0 } }
        func set(_ value: StreamSubscriber.Signal) { signal.withLock { $0 = value } }
    }
}
