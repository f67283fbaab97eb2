import Foundation
import ViewHost
import ViewHostClient
import ViewHostLocking

/// What `viewhost client watch` makes of the change feed's failed attempts: one line on stderr each time the kind
/// of failure changes (the server down, a `5xx`, an answer that is no event stream), never one per retry, and the
/// end of the watch once failures have gone on for the `--give-up-after` bound without a change in between.
final class WatchFailures: Sendable {
    private struct State {
        var since: ContinuousClock.Instant?
        var lastKind: String?
        var gaveUpWith: ViewHostError?
        var giveUp: (@Sendable () -> Void)?
    }

    private let giveUpAfter: Duration
    private let state = Locked(State())

    init(giveUpAfter: Duration) {
        self.giveUpAfter = giveUpAfter
    }

    /// The failure the watch gave up with, if it did.
    var gaveUpWith: ViewHostError? { state.withLock { $0.gaveUpWith } }

    /// Sets what giving up does (cancel the watch); runs it at once if the watch already gave up.
    func onGiveUp(_ action: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            state.giveUp = action
            return state.gaveUpWith != nil
        }
        if already { action() }
    }

    /// A change arrived: the server works again.
    func clear() {
        state.withLock { state in
            state.since = nil
            state.lastKind = nil
        }
    }

    /// One failed attempt: a line when its kind is new, and the end once the bound has passed.
    @Sendable func record(_ error: ViewHostError) {
        let now = ContinuousClock.now
        let kind = "\(error.kind) \(error.status.map(String.init) ?? "")"
        let (print, giveUp) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            let since = state.since ?? now
            state.since = since
            let isNew = state.lastKind != kind
            state.lastKind = kind
            guard state.gaveUpWith == nil, since.duration(to: now) >= giveUpAfter else { return (isNew, nil) }
            state.gaveUpWith = error
            return (false, state.giveUp)
        }
        let seconds = Int(giveUpAfter.components.seconds)
        if print {
            ClientFailure.printError(
                "\(CommandFeatures.name): \(error); retrying (giving up after \(seconds) s of this)")
        }
        if let giveUp {
            ClientFailure.printError("\(CommandFeatures.name): gave up after \(seconds) s of failures")
            giveUp()
        }
    }
}
