import Foundation

/// One session's applied inputs on their way to the journal, as a value: the ordering a session's commits follow,
/// apart from the lock that guards it and the threads that drive it.
///
/// - **Apply → a numbered entry** (``record(_:)``): under the session's lock each applied input gets the next
///   journal number and joins the hand-off queue; its effects, the versions it made and its ticket wait for its
///   commit.
/// - **Hand-off, in number order** (``takeHandOff()``, ``continueHandOff()``): one thread at a time makes the queued
///   entries and hands them to the journal, in order, whatever order the threads that applied them come in (two
///   threads that applied 5 and 6 reach the hand-off in either order; the store refused 6 as a gap when each handed
///   its own over). A thread that finds nothing queued does not take the role (taken with nothing to hand over, it
///   stayed taken, and every later entry waited for ever).
/// - **Committed up to N** (``committed(upTo:durable:)``): the pending inputs up to N are kept, and their effects
///   and answers go out in order; or, when the journal could not keep them, they and everything applied after them
///   fail (the journal's contract: a failed write fails every later one of the session).
/// - **What readers may see** (``readableVersion(of:current:)``): the newest durable version of each feature, while
///   newer inputs wait; and the versions readers wait for, kept while newer inputs are applied (``keep(_:)``).
///
/// Nothing here locks, waits or reads a clock: ``Session`` holds it under its lock and carries out what it says.
/// What is in flight sits in a box made with the first input handed to a journal and given back once nothing is
/// (an idle session, and every session without a journal, carries one word for it); the box is copied before a
/// change when another pipeline value shares it, so the pipeline is a value.
struct CommitPipeline {
    /// An input applied and not yet durable, with what waits for its commit.
    struct Pending {
        /// Its journal number.
        let number: Int
        /// What it asks for once durable: the changes to publish and the requests to start.
        let effects: Session.Effects
        /// The version of its feature it made readable once durable (empty when it changed no version).
        let versions: [String: Int]
        /// Its idempotency key, refused to a retry until it is durable.
        let key: String?
        /// Resolved with its commit, when somebody waits (made on demand, ``ticket(forNewestChangeOf:)``).
        var ticket: CommitTicket?
    }

    /// What a commit of the journal did to the inputs waiting for it.
    enum Outcome {
        /// Kept: these inputs' effects go out and their tickets resolve, in order.
        case kept([Pending])
        /// Not kept: these inputs (the ones the commit covered and every later one) fail; the session's value is no
        /// longer its durable one.
        case failed([Pending])
    }

    /// An input to record: its journal entry (made outside the lock), and what its commit releases.
    struct Recorded {
        /// The entry, without its number (``record(_:)`` gives it the next).
        let entry: (Int) -> Session.UnmadeEntry
        /// What it asks for once durable.
        let effects: Session.Effects
        /// The feature it changed and its version before the change, when it changed one: the version readers keep
        /// seeing until it is durable.
        let changed: (feature: String, versionBefore: Int)?
        /// The version of the feature it made readable once durable.
        let versions: [String: Int]
        /// Its idempotency key.
        let key: String?
        /// Whether its caller waits for its commit (a ticket is made now).
        let waited: Bool
    }

    /// The box of what is in flight (see the type's documentation).
    private final class InFlight: @unchecked Sendable {
        // Mutated only through `change`, while no other pipeline value holds the box.
        var uncommitted: [String: Int] = [:]
        var pending: [Pending] = []
        var readersWaiting: [String: Int] = [:]
        var kept: [String: [KeptVersion]] = [:]
        var keysInFlight: Set<String> = []
        var handoff: [Session.UnmadeEntry] = []
        var handingOff = false

        init() {}

        init(copying other: InFlight) {
            uncommitted = other.uncommitted
            pending = other.pending
            readersWaiting = other.readersWaiting
            kept = other.kept
            keysInFlight = other.keysInFlight
            handoff = other.handoff
            handingOff = other.handingOff
        }

        var isEmpty: Bool {
            uncommitted.isEmpty && pending.isEmpty && readersWaiting.isEmpty && kept.isEmpty && keysInFlight.isEmpty
                && handoff.isEmpty && !handingOff
        }
    }

    /// The journal number of the last input applied.
    private(set) var appliedNumber: Int
    /// The journal number of the last input known durable.
    private(set) var committedNumber: Int
    private var inFlight: InFlight?

    /// A pipeline whose inputs up to `journalNumber` are durable.
    init(journalNumber: Int) {
        appliedNumber = journalNumber
        committedNumber = journalNumber
    }

    /// Changes what is in flight, making the box first (and copying it when another value shares it), then giving
    /// it back if nothing is left in flight.
    private mutating func change<Result>(_ body: (InFlight) -> Result) -> Result {
        if inFlight == nil {
            inFlight = InFlight()
        } else if !isKnownUniquelyReferenced(&inFlight) {
            inFlight = InFlight(copying: inFlight!)  // made just above when nil
        }
        let box = inFlight!  // made just above when nil
        let result = body(box)
        if box.isEmpty { inFlight = nil }
        return result
    }

    // MARK: - Applying

    /// Records an applied input under the lock: it gets the next journal number and joins the hand-off queue; its
    /// effects wait for its commit.
    /// - Returns: Its number, and its ticket when its caller waits.
    mutating func record(_ recorded: Recorded) -> (number: Int, ticket: CommitTicket?) {
        appliedNumber += 1
        let number = appliedNumber
        let ticket = recorded.waited ? CommitTicket() : nil
        change { box in
            if let changed = recorded.changed, box.uncommitted[changed.feature] == nil {
                box.uncommitted[changed.feature] = changed.versionBefore
            }
            box.handoff.append(recorded.entry(number))
            if let key = recorded.key { box.keysInFlight.insert(key) }
            box.pending.append(
                Pending(
                    number: number, effects: recorded.effects, versions: recorded.versions, key: recorded.key,
                    ticket: ticket))
        }
        return (number, ticket)
    }

    /// Records an input no journal keeps (it is durable as it is applied).
    /// - Returns: Its number.
    mutating func recordWithoutJournal() -> Int {
        appliedNumber += 1
        committedNumber = appliedNumber
        return appliedNumber
    }

    /// Whether a request with idempotency key `key` is applied and not durable yet.
    func isInFlight(key: String) -> Bool {
        inFlight?.keysInFlight.contains(key) ?? false
    }

    /// Whether nothing applied waits to be handed over or committed.
    var isSettled: Bool {
        guard let inFlight else { return true }
        return inFlight.pending.isEmpty && inFlight.handoff.isEmpty && inFlight.keysInFlight.isEmpty
    }

    // MARK: - Hand-off

    /// Takes the hand-off role when nobody holds it and entries are queued.
    /// - Returns: The entries to make and hand to the journal, in number order; empty when another thread holds the
    ///   role (it hands these over too) or nothing is queued (then the role is not taken).
    mutating func takeHandOff() -> [Session.UnmadeEntry] {
        guard let inFlight, !inFlight.handingOff, !inFlight.handoff.isEmpty else { return [] }
        return change { box in
            box.handingOff = true
            defer { box.handoff = [] }
            return box.handoff
        }
    }

    /// For the thread holding the hand-off role, once it handed its batch over: the entries queued meanwhile, in
    /// number order; when none, the role ends.
    mutating func continueHandOff() -> [Session.UnmadeEntry] {
        change { box in
            guard !box.handoff.isEmpty else {
                box.handingOff = false
                return []
            }
            defer { box.handoff = [] }
            return box.handoff
        }
    }

    // MARK: - Commits

    /// The journal kept every entry up to `number` (`durable`), or could not keep them.
    /// - Parameters:
    ///   - number: The last entry the commit covered.
    ///   - durable: Whether the journal kept them.
    ///   - current: Each feature's version in the session's value (what readers see once nothing is pending).
    /// - Returns: The inputs whose effects go out now, or the inputs that fail: those up to `number` and every
    ///   later one.
    mutating func committed(upTo number: Int, durable: Bool, current: (String) -> Int?) -> Outcome {
        if durable { committedNumber = number }
        guard inFlight != nil else { return .kept([]) }
        return change { box in
            let done = box.pending.prefix { $0.number <= number }
            box.pending.removeFirst(done.count)
            for commit in done { if let key = commit.key { box.keysInFlight.remove(key) } }
            guard durable else {
                let failed = Array(done) + box.pending
                box.pending.removeAll()
                return .failed(failed)
            }
            if box.pending.isEmpty {
                box.uncommitted = [:]
                box.kept = [:]
            } else {
                for commit in done {
                    for (feature, version) in commit.versions where box.uncommitted[feature] != nil {
                        box.uncommitted[feature] = version
                    }
                }
                // Versions older than each feature's newest durable one are no longer read.
                for (feature, versions) in box.kept {
                    guard let committed = box.uncommitted[feature] ?? current(feature) else { continue }
                    let newer = versions.filter { $0.version >= committed }
                    box.kept[feature] = newer.isEmpty ? nil : newer
                }
            }
            return .kept(Array(done))
        }
    }

    /// Gives up the inputs from `number` on, which can never be handed over (entry `number` cannot be stored): they
    /// leave the queue and the pending list, the hand-off role ends, and the inputs before `number` go on to their
    /// commits.
    /// - Returns: The inputs given up, whose tickets fail.
    mutating func abandon(from number: Int) -> [Pending] {
        guard inFlight != nil else { return [] }
        return change { box in
            box.handoff = []
            box.handingOff = false
            let kept = box.pending.prefix { $0.number < number }
            let abandoned = Array(box.pending.dropFirst(kept.count))
            box.pending = Array(kept)
            for commit in abandoned { if let key = commit.key { box.keysInFlight.remove(key) } }
            return abandoned
        }
    }

    /// The ticket of every input applied so far: resolved once the last is durable (nil when all are).
    mutating func ticketForAll() -> CommitTicket? {
        guard let last = inFlight?.pending.indices.last else { return nil }
        return ticket(forPendingAt: last)
    }

    /// The ticket of the newest pending input that changed `feature`: resolved once its newest change is durable
    /// (nil when none is pending).
    mutating func ticket(forNewestChangeOf feature: String) -> CommitTicket? {
        guard let index = inFlight?.pending.lastIndex(where: { $0.versions[feature] != nil }) else { return nil }
        return ticket(forPendingAt: index)
    }

    private mutating func ticket(forPendingAt index: Int) -> CommitTicket {
        change { box in
            if let ticket = box.pending[index].ticket { return ticket }
            let ticket = CommitTicket()
            box.pending[index].ticket = ticket
            return ticket
        }
    }

    // MARK: - What readers see

    /// The newest durable version of `feature`, whose version in the session's value is `current`.
    func readableVersion(of feature: String, current: Int?) -> Int? {
        inFlight?.uncommitted[feature] ?? current
    }

    /// A reader waits for `feature`'s newest durable version: from now on it is kept before inputs change it.
    mutating func readerWaits(for feature: String) {
        change { $0.readersWaiting[feature, default: 0] += 1 }
    }

    /// A reader of `feature` stopped waiting.
    mutating func readerDone(with feature: String) {
        change { box in
            box.readersWaiting[feature, default: 1] -= 1
            if box.readersWaiting[feature] == 0 { box.readersWaiting[feature] = nil }
        }
    }

    /// Whether a reader waits for `feature`.
    func isWaitedOn(_ feature: String) -> Bool {
        inFlight?.readersWaiting[feature] != nil
    }

    /// Keeps the current version of every feature a reader waits for (as `core` has it), before an input may change
    /// it; nothing to do while no reader waits, which is nearly always.
    mutating func keepVersionsReadersWaitFor(in core: SessionCore) {
        guard let waiting = inFlight?.readersWaiting, !waiting.isEmpty else { return }
        change { box in
            for feature in waiting.keys {
                guard let current = core.keptVersion(of: feature), box.kept[feature]?.last?.version != current.version
                else { continue }
                box.kept[feature, default: []].append(current)
            }
        }
    }

    /// The kept version `version` of `feature`, if it was kept.
    func keptVersion(of feature: String, version: Int) -> KeptVersion? {
        inFlight?.kept[feature]?.first { $0.version == version }
    }
}
