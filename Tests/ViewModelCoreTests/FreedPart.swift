import Foundation
import ViewHostLocking

/// A part that notes, by its number, the thread it was made on and the one it was freed on: for the tests of where
/// ``Ahead`` and ``SharedParts`` free the parts handed back to them.
final class FreedPart: Sendable {
    typealias Log = Locked<[Int: (made: UInt, freed: UInt)]>

    let number: Int
    let madeOn = UInt(pthread_self())
    let log: Log

    init(number: Int, log: Log) {
        self.number = number
        self.log = log
    }

    deinit {
        let (number, made, freed) = (number, madeOn, UInt(pthread_self()))
        log.withLock { $0[number] = (made, freed) }
    }

    /// `log` once `count` parts are in it (the threads that free them are given up to 30 s).
    static func all(_ count: Int, in log: Log) async throws -> [Int: (made: UInt, freed: UInt)] {
        let deadline = ContinuousClock.now + .seconds(30)
        while log.withLock({ $0.count }) < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return log.withLock { $0 }
    }
}
