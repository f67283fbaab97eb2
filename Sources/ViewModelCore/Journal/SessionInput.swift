import Foundation

/// One input a session applied, as its journal records it: everything ``SessionCore/replay(_:observe:)`` needs to apply it
/// again and reach the same value, byte for byte (the instant, the events with their source, which timer fired,
/// a provider's answer, a submission's event ids and idempotency key, what another session delivered). Random draws need no record: the
/// generator's state is part of the session's value. Refused inputs are never recorded: they changed nothing.
/// Events are the feature's events, JSON-encoded as an array.
public enum SessionInput: Codable, Equatable, Sendable {
    /// A client's request, source `client`: its events with their ids, its idempotency key with the fingerprint of
    /// the request it came with, and who sent it: `participant` the id of a shared session's participant (from its
    /// credential), nil for the session's owner (every record written before participants existed).
    case submission(
        feature: String, at: Date, events: Data, eventIDs: [String?], key: String?, fingerprint: String?,
        participant: String? = nil)
    /// Events the app itself sent (a feature's start, source `view`), or a test.
    case events(feature: String, at: Date, source: EventSource, events: Data)
    /// A pending timer fired.
    case timer(id: Int, at: Date)
    /// Request `request` of `feature` was answered (source `provider`) with the one event in `events`.
    case answer(feature: String, at: Date, request: Int, events: Data)
    /// Deliveries another session made to `feature`, from the contact this session knows as `from`, numbered from
    /// `number` (source `session`): `events`, or, with `introduction` (the sender's name; `events` then `[]`), the
    /// contact made on the other side. Numbers applied before are skipped.
    case delivery(feature: String, at: Date, from: ContactAddress, number: Int, introduction: String?, events: Data)
    /// A contact made for `feature` by this session (it redeemed an invitation): the contact at `contact`, named
    /// `name`, to which this session is introduced as `introducing`.
    case introduction(feature: String, at: Date, contact: ContactAddress, name: String, introducing: String)
    /// The receiver's word on `feature`'s deliveries to `to` numbered up to `through`: arrived (no `failure`), or
    /// not, and why.
    case acknowledgement(feature: String, at: Date, to: ContactAddress, through: Int, failure: DeliveryFailure?)
    /// What happened to a shared session's invitations or participants (``Participation``), with the invitation's
    /// or the participant's id alone: it changes no feature, and takes the session's next sequence number for its
    /// entry in the data-flow log.
    case participation(at: Date, kind: Participation, id: String)

    /// When it was applied.
    public var at: Date {
        switch self {
        case .submission(_, let at, _, _, _, _, _), .events(_, let at, _, _), .timer(_, let at),
            .answer(_, let at, _, _), .delivery(_, let at, _, _, _, _), .introduction(_, let at, _, _, _),
            .acknowledgement(_, let at, _, _, _), .participation(let at, _, _):
            at
        }
    }
}

/// Why a journal input could not be replayed: the journal does not belong to this session's value.
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    /// The input names a feature the session does not have.
    case noSuchFeature(String)
    /// The input's events do not decode as the feature's events.
    case undecodableEvents(feature: String)
    /// The input's events do not decode as the feature's events: the event, the member and the stored version.
    case undecodable(StoredFeatureError)
    /// The state refused the input's events (it was recorded against another state).
    case refused(String)

    /// One line naming the feature or the refusal, for the log and the `422` or `500` detail.
    public var description: String {
        switch self {
        case .noSuchFeature(let name): "the journal names feature '\(name)', which the session does not have"
        case .undecodableEvents(let feature): "the journal's events for '\(feature)' do not decode"
        case .undecodable(let error): "the journal's events for '\(error.feature)' do not decode: \(error.summary)"
        case .refused(let reason): "the session refused a recorded input: \(reason)"
        }
    }
}
