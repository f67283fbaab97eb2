import Foundation
import ViewModelCore

/// What one input changed in a ``TestHost``: the features whose version grew, with their new versions, the
/// timers started and cancelled, and the requests made, as data to compare by equality.
public struct TestStep: Equatable, Sendable {
    /// Each feature whose view model changed, with its version after the input.
    public let versions: [String: Int]
    /// The numbers of the timers the input started.
    public let timersStarted: [Int]
    /// The numbers of the timers it cancelled.
    public let timersCancelled: [Int]
    /// The numbers of the requests it made.
    public let requests: [Int]

    init(_ step: SessionStep) {
        var versions: [String: Int] = [:]
        for change in step.changes { versions.merge(change.versions) { $1 } }
        self.versions = versions
        timersStarted = step.timersStarted.map(\.id)
        timersCancelled = step.timersCancelled
        requests = step.requests.map(\.id)
    }

    /// Whether the input changed any view model.
    public var changed: Bool { !versions.isEmpty }
}
