/// A session's history kept in memory, for the memory store (durable stores keep theirs with the journal): the
/// value at its checkpoints and the inputs after the oldest, bounded as a store bounds it
/// (``HistoryRetention``). An input is kept as the way to make it (its events as the feature's own values), and
/// encoded only when it is read: most are never read, and encoding on every event cost the event path a quarter
/// of its requests per second. A copy is a snapshot of it, read without the session's lock.
public struct HeldHistory: Sendable, SessionHistoryReading {
    /// An input kept, with its number.
    private struct Held: Sendable {
        let number: Int
        let input: UnmadeInput
    }

    /// How many of the latest inputs are kept at least.
    public let limit: Int
    /// A checkpoint that never changes, in a box of its own.
    private final class Base: Sendable {
        let number: Int
        let core: SessionCore

        init(_ number: Int, _ core: SessionCore) {
            self.number = number
            self.core = core
        }
    }

    /// The oldest checkpoint: a value with the number of the last record it includes (its versions are read from
    /// the value when asked for, not kept beside it). Kept here, not first in `later`: most sessions never reach a
    /// second checkpoint, and an array of one would cost them more than this box. Boxed, so that a history is a few
    /// words in the session's shell, and a session whose store keeps its journal (and no history in memory) does
    /// not carry a value's worth of bytes for a history it never has.
    private var baseBox: Base
    private var base: (number: Int, core: SessionCore) { (baseBox.number, baseBox.core) }
    /// The newer checkpoints, oldest first.
    private var later: [(number: Int, core: SessionCore)] = []
    private var inputs: [Held] = []

    /// A history that starts with `base`, the value after journal record `number` (0: a new session).
    public init(limit: Int, base: SessionCore, number: Int) {
        self.limit = max(0, limit)
        baseBox = Base(number, base)
    }

    /// Every checkpoint, oldest first.
    private var held: [(number: Int, core: SessionCore)] { [base] + later }

    /// Adds `record`, applied last; with `core` (its value after the record), a checkpoint there, and then the
    /// checkpoints and records older than the retention bound go.
    public mutating func append(_ record: JournalRecord, checkpoint core: SessionCore?) {
        let input = record.input
        append(number: record.number, input: .maker({ input }), checkpoint: core)
    }

    /// Adds input `number`, applied last, made by `input` when it is read; with `core`, a checkpoint there.
    mutating func append(number: Int, input: UnmadeInput, checkpoint core: SessionCore?) {
        inputs.reserveForOneMore()
        inputs.append(Held(number: number, input: input))
        guard let core else { return }
        later.append((number, core))
        guard let oldest = HistoryRetention.base(of: held.map(\.number), last: number, keeping: limit),
            oldest != base.number, let kept = later.firstIndex(where: { $0.number == oldest })
        else { return }
        baseBox = Base(later[kept].number, later[kept].core)
        later.removeFirst(kept + 1)
        inputs.removeFirst(inputs.prefix { $0.number <= oldest }.count)
    }

    /// The number of the last record held (the base checkpoint's when none is).
    public var lastNumber: Int { inputs.last?.number ?? (later.last ?? base).number }

    /// The checkpoints held, oldest first (`id` is the one session this history is of).
    public func checkpoints(of id: SessionID) -> [HistoryCheckpoint] {
        held.map { HistoryCheckpoint(number: $0.number, core: $0.core) }
    }

    /// The value at checkpoint `number`, or nil when it is not held.
    public func checkpoint(of id: SessionID, at number: Int) -> SessionCore? {
        baseBox.number == number ? baseBox.core : later.first { $0.number == number }?.core
    }

    /// At most `limit` of the records held after record `number`, in order.
    public func records(of id: SessionID, after number: Int, limit: Int) -> [JournalRecord] {
        let start = inputs.firstIndex { $0.number > number } ?? inputs.endIndex
        return inputs[start..<min(inputs.endIndex, start + max(0, limit))].map {
            JournalRecord(number: $0.number, input: $0.input.make())
        }
    }
}

/// How much of a session's past is kept: from the newest checkpoint at or before the `keeping`-th input back from
/// the last, so at least `keeping` inputs, and fewer than two checkpoint intervals more (a checkpoint interval
/// before the bound, and the inputs since the last checkpoint, which compaction waits for). Every store applies it
/// when it takes a checkpoint (SQLite and PostgreSQL in SQL, the memory store in ``HeldHistory``).
public enum HistoryRetention {
    /// The checkpoint the kept history starts at: the newest of `checkpoints` numbered at most `last - keeping`;
    /// nil when there is none (then nothing goes yet).
    public static func base(of checkpoints: [Int], last: Int, keeping: Int) -> Int? {
        checkpoints.filter { $0 <= last - keeping }.max()
    }
}
