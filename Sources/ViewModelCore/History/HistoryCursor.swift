import Foundation
import ViewHostAPI

/// A session's value at one point of its journal, moved forward a record at a time: how a past version is rebuilt
/// (from the checkpoint at or before it, the records after it replayed until the feature reaches the version).
public struct HistoryCursor: Sendable {
    /// The value after record ``number``.
    public private(set) var core: SessionCore
    /// The number of the last record applied.
    public private(set) var number: Int

    /// A cursor at `core`, the value after record `number`.
    public init(core: SessionCore, number: Int) {
        self.core = core
        self.number = number
    }

    /// Applies `record`, the next one.
    /// - Parameters:
    ///   - record: The record after the last one applied.
    ///   - feature: The feature whose new versions to collect (nil: none).
    ///   - viewer: Who the collected view models are made for (the owner by default; another viewer sees another
    ///     view of a ``ViewerDependentFeature`` only).
    /// - Returns: The view models of `feature`'s versions made by the record, in order (a batch of events makes a
    ///   version each).
    /// - Throws: ``HistoryError/gap(expected:found:)`` when `record` is not the next one;
    ///   ``HistoryError/unreadable(number:reason:)`` when it does not replay.
    @discardableResult
    public mutating func apply(
        _ record: JournalRecord, collecting feature: String?, for viewer: Viewer = .owner
    ) throws(HistoryError) -> [(version: Int, viewModel: any ViewModel)] {
        var made: [(version: Int, viewModel: any ViewModel)] = []
        guard let feature else {
            try apply(record, observe: nil)
            return made
        }
        try apply(record) { name, version, snapshot in
            if name == feature { made.append((version, snapshot(for: viewer))) }
        }
        return made
    }

    /// Applies `record`, the next one, telling `observe` of every new version with a way to build its snapshot.
    /// - Throws: ``HistoryError``, as ``apply(_:collecting:for:)``.
    public mutating func apply(
        _ record: JournalRecord,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?
    ) throws(HistoryError) {
        try apply(record, decoded: nil, observe: observe)
    }

    /// Applies `record`, the next one, with its events decoded ahead (``SessionCore/decodedAhead(_:)``).
    /// - Throws: ``HistoryError``, as ``apply(_:collecting:for:)``.
    public mutating func apply(
        _ record: JournalRecord, decoded: DecodedEvents?,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?
    ) throws(HistoryError) {
        guard record.number == number + 1 else { throw .gap(expected: number + 1, found: record.number) }
        do throws(ReplayError) {
            try core.replay(record.input, decoded: decoded, observe: observe)
        } catch {
            throw .unreadable(number: record.number, reason: error.description)
        }
        number = record.number
    }
}

/// Why a past version could not be rebuilt.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The records held skip a number (compaction ran while they were read).
    case gap(expected: Int, found: Int)
    /// Record `number` does not replay on the value before it.
    case unreadable(number: Int, reason: String)

    /// One line naming the record, for the log and the `500` detail.
    public var description: String {
        switch self {
        case .gap(let expected, let found): "the history skips from record \(expected - 1) to \(found)"
        case .unreadable(let number, let reason): "journal record \(number) does not replay: \(reason)"
        }
    }
}

extension SessionCore {
    /// Pending timer `id`: its feature, how the log shows its source, and its event as a journal records events
    /// (a one-element array, with the schema version when it is not 1); nil when no feature holds it.
    /// - Throws: ``UnstorableValue`` when its event cannot be encoded.
    public func pendingTimer(_ id: Int) throws(UnstorableValue) -> (feature: String, source: EventSource, events: Data)?
    {
        for slot in slots {
            if let timer = try slot.encodedTimer(id) { return (slot.name, timer.source, timer.events) }
        }
        return nil
    }
}
