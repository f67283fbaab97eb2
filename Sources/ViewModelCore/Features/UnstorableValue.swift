import Foundation

/// A value a feature made that cannot be stored: its encoding failed (a `Double` that is not finite, say), so it
/// cannot be journaled, snapshotted or exported. Never written as empty bytes: a client's event that cannot be
/// stored is refused before it is applied; a state or an internal event that cannot be stored stops the session.
public struct UnstorableValue: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feature whose value it is.
    public let feature: String
    /// Where in the value, as its `Codable` shape names it (`events[0].gauge`, `state.ratio`); empty when the encoder
    /// did not say.
    public let field: String
    /// What is wrong, in the encoder's words.
    public let reason: String

    /// Creates one.
    public init(feature: String, field: String, reason: String) {
        self.feature = feature
        self.field = field
        self.reason = reason
    }

    /// `error`, thrown encoding `feature`'s value `what` (`events`, `state`, `timers[3].event`), as an unstorable
    /// value naming the field the encoder stopped at.
    init(_ error: any Error, feature: String, in what: String) {
        self.feature = feature
        guard let error = error as? EncodingError, case .invalidValue(_, let context) = error else {
            field = what
            reason = "\(error)"
            return
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        field = what + path
        reason = context.debugDescription
    }

    /// One line naming the feature, the field and the encoder's reason, for the log and the `500` detail.
    public var description: String {
        "feature '\(feature)' made a value that cannot be stored (\(field.isEmpty ? "its value" : field): \(reason))"
    }
}

extension SessionCore {
    /// `error`, thrown encoding this whole value (a store's snapshot of it), as an unstorable value naming the
    /// feature and the field the encoder stopped at (`state.ratio` of `counter`).
    public func unstorable(_ error: any Error) -> UnstorableValue {
        guard let error = error as? EncodingError, case .invalidValue(_, let context) = error else {
            return UnstorableValue(feature: "", field: "", reason: "\(error)")
        }
        func joined(_ keys: some Collection<any CodingKey>) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        // The encoder's path does not say which feature's slot it was in (it starts at the slot): each slot is
        // encoded alone to find it (only once a value failed).
        for slot in slots {
            do {
                _ = try StoredJSON.encode(EncodedSlot(slot: slot))
            } catch let error as EncodingError {
                guard case .invalidValue(_, let context) = error else { continue }
                return UnstorableValue(
                    feature: slot.name, field: joined(context.codingPath), reason: context.debugDescription)
            } catch {
                continue
            }
        }
        return UnstorableValue(feature: "", field: joined(context.codingPath), reason: context.debugDescription)
    }
}

/// One feature slot, encodable on its own (to find which slot of a value cannot be encoded).
private struct EncodedSlot: Encodable {
    let slot: any AnyFeatureSlot

    func encode(to encoder: any Encoder) throws {
        try slot.encode(to: encoder)
    }
}
