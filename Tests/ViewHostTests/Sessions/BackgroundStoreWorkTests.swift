import Dispatch
import Foundation
import TestSupport
import Testing
import ViewHostLocking

@testable import ViewHost

/// The registry's loops and the store's close: close() lets no new work start and returns only once the work under
/// way ended, so nothing reads the store while it closes.
struct BackgroundStoreWorkTests {
    @Test func closeWaitsForTheWorkUnderWayAndNoneStartsAfter() async throws {
        let work = BackgroundStoreWork()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let events = Locked([String]())
        let worker = Thread {
            work.run {
                started.signal()
                release.wait()
                events.withLock { $0.append("work ended") }
            }
        }
        worker.start()
        started.wait()
        let closer = Thread {
            work.close()
            events.withLock { $0.append("closed") }
        }
        closer.start()
        // The close waits: it cannot have returned while the work is held.
        for _ in 0..<20 {
            #expect(events.withLock { $0 }.isEmpty)
            try await Task.sleep(for: .milliseconds(5))
        }
        release.signal()
        #expect(await eventually { events.withLock { $0.count == 2 } })
        #expect(events.withLock { $0 } == ["work ended", "closed"])
        #expect(work.isClosed)
        #expect(!work.run { events.withLock { $0.append("ran after close") } })
        #expect(events.withLock { $0.count } == 2)
    }
}
