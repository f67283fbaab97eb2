import Foundation

/// A point of a session's history where its whole value is kept (its creation, then every
/// ``Session/snapshotInterval`` inputs, or more on a durable store: ``SnapshotSpacing``): replays of its past start
/// from the nearest one. Listed with each feature's version there, so the right one is found without reading the
/// values.
public struct HistoryCheckpoint: Sendable, Equatable {
    /// The number of the last journal record the value includes (0: the session as it was created).
    public let number: Int
    /// Each feature's version in that value.
    public let versions: [String: Int]

    /// Creates a checkpoint.
    public init(number: Int, versions: [String: Int]) {
        self.number = number
        self.versions = versions
    }

    /// The checkpoint of `core`, taken after record `number`.
    public init(number: Int, core: SessionCore) {
        self.init(number: number, versions: core.versions)
    }

    /// A checkpoint whose versions a store kept as JSON text (``versionsJSON``); nil when the text is not theirs.
    public init?(number: Int, versionsJSON text: String) {
        guard let versions = try? JSONDecoder().decode([String: Int].self, from: Data(text.utf8)) else { return nil }
        self.init(number: number, versions: versions)
    }

    /// The versions as the JSON text stores keep beside a checkpoint's value (`{"chat":3,"login":1}`; feature
    /// names are plain path segments, nothing to escape).
    public var versionsJSON: String {
        "{" + versions.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }
}

extension SessionCore {
    /// Each feature's version.
    public var versions: [String: Int] {
        Dictionary(uniqueKeysWithValues: slots.map { ($0.name, $0.version) })
    }
}
