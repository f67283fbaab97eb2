/// What a session remembers so retried requests are not applied twice: answers by `Idempotency-Key`, and the
/// ids of events already applied (an event's own `"id"`). Both are bounded; the oldest entries go first.
public struct IdempotencyLedger: Sendable {
    private var answers: [String: any Sendable] = [:]
    private var answerOrder: [String] = []
    private var eventIDs: Set<String> = []
    private var eventOrder: [String] = []
    private let maxAnswers: Int
    private let maxEventIDs: Int

    init(maxAnswers: Int = 256, maxEventIDs: Int = 1024) {
        self.maxAnswers = maxAnswers
        self.maxEventIDs = maxEventIDs
    }

    /// The answer first given for `key`, if any.
    public func answer<Answer: Sendable>(for key: String, as type: Answer.Type = Answer.self) -> Answer? {
        answers[key] as? Answer
    }

    /// Remembers the answer for `key`.
    public mutating func record(_ answer: any Sendable, for key: String) {
        if answers.updateValue(answer, forKey: key) == nil { answerOrder.append(key) }
        if answerOrder.count > maxAnswers { answers[answerOrder.removeFirst()] = nil }
    }

    /// Whether an event with this id was applied already.
    public func hasApplied(eventID: String) -> Bool {
        eventIDs.contains(eventID)
    }

    /// Remembers that an event with this id was applied.
    public mutating func markApplied(eventID: String) {
        guard eventIDs.insert(eventID).inserted else { return }
        eventOrder.append(eventID)
        if eventOrder.count > maxEventIDs { eventIDs.remove(eventOrder.removeFirst()) }
    }
}
