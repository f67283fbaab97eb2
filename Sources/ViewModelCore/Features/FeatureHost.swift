import Foundation

/// What one application of an event asks the session to do next. Plain structs, not tuples: building arrays of
/// generic tuples costs a runtime metadata lookup per element, which was a fifth of a chat `send`.
struct HostStep {
    struct Scheduled {
        let id: TimerID
        let delay: Duration
        let event: any Sendable
        let source: EventSource
    }

    struct FollowUp {
        let event: any Sendable
        let source: EventSource
    }

    struct Effect {
        let work: @Sendable () async -> any Sendable
        let source: EventSource
    }

    var description: EventDescription
    var changed: Bool
    var scheduled: [Scheduled]
    var cancelled: [TimerID]
    var followUps: [FollowUp]
    var effects: [Effect]
    var random: RandomSource
    var nextTimerValue: Int
}

/// The session's type-erased view of one feature.
protocol AnyFeatureHost: AnyObject {
    var name: String { get }
    var version: Int { get set }
    /// The session-wide sequence number of the step that produced the current version (0 for the first).
    var lastChangeSequence: Int { get set }
    /// An app-level representation of the newest version (such as its encoded bytes), kept with its version.
    var representation: (version: Int, value: any Sendable)? { get set }
    func apply(
        erased event: any Sendable, now: Date, source: EventSource, sequence: Int, timeZone: TimeZone,
        locale: String, random: RandomSource, nextTimerValue: Int
    ) -> HostStep
    func erasedViewModel() -> any ViewModel
    func versionBumped()
}

/// Holds one feature model with its version and lazily built view model. Lives inside the session's lock.
final class FeatureHost<Model: FeatureModel>: AnyFeatureHost {
    let name: String
    let model: Model
    var version = 1
    var lastChangeSequence = 0
    var representation: (version: Int, value: any Sendable)?
    private var cachedViewModel: (version: Int, value: Model.Snapshot)?
    private var recorders: [(Int, Model.Snapshot) -> Void] = []

    init(name: String, model: Model) {
        self.name = name
        self.model = model
    }

    func apply(
        erased event: any Sendable, now: Date, source: EventSource, sequence: Int, timeZone: TimeZone,
        locale: String, random: RandomSource, nextTimerValue: Int
    ) -> HostStep {
        guard let event = event as? Model.Event else {
            preconditionFailure("event \(type(of: event)) routed to feature \(name)")
        }
        var context = FeatureContext<Model.Event>(
            now: now, source: source, sequence: sequence, timeZone: timeZone, locale: locale, random: random,
            firstTimerID: nextTimerValue)
        model.apply(event, context: &context)
        var step = HostStep(
            description: Model.describe(event), changed: context.didChange, scheduled: [],
            cancelled: context.cancelled, followUps: [], effects: [], random: context.random,
            nextTimerValue: context.nextTimerValue)
        if !context.scheduled.isEmpty {
            step.scheduled.reserveCapacity(context.scheduled.count)
            for item in context.scheduled {
                step.scheduled.append(.init(id: item.id, delay: item.delay, event: item.event, source: item.source))
            }
        }
        if !context.followUps.isEmpty {
            for followUp in context.followUps {
                step.followUps.append(.init(event: followUp.event, source: followUp.source))
            }
        }
        if !context.effects.isEmpty {
            for effect in context.effects {
                let work = effect.work
                step.effects.append(.init(work: { await work() as any Sendable }, source: effect.source))
            }
        }
        return step
    }

    /// The view model of the current version, built at most once per version.
    func viewModel() -> Model.Snapshot {
        if let cachedViewModel, cachedViewModel.version == version { return cachedViewModel.value }
        let value = model.makeViewModel()
        cachedViewModel = (version, value)
        return value
    }

    func erasedViewModel() -> any ViewModel {
        viewModel()
    }

    func versionBumped() {
        cachedViewModel = nil
        guard !recorders.isEmpty else { return }
        let value = viewModel()
        for recorder in recorders { recorder(version, value) }
    }

    func addRecorder(_ recorder: @escaping (Int, Model.Snapshot) -> Void) {
        recorders.append(recorder)
    }
}
