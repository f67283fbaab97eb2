import Foundation

/// What happened to a shared session's invitations and participants (issue 43): the input
/// ``SessionInput/participation(at:kind:id:)`` records it, and the session's data-flow log shows it as an entry of
/// ``Participation/feature`` (the reserved name `participants`), the kind its event, with the invitation's or the
/// participant's id alone: never a code, a token, a secret or a name.
public enum Participation: String, CaseIterable, Sendable, Equatable, Codable {
    /// The owner made a join invitation (its id, `j…`).
    case invited
    /// The owner withdrew a join invitation (its id).
    case withdrawn
    /// Someone joined with a code (the new participant's id, `p…`).
    case joined
    /// The owner removed a participant (its id).
    case removed
    /// A member removed itself (its id).
    case left

    /// The name the log gives these entries (a name no hosted feature may have), with a version of 0 after each:
    /// no feature's version changes, so every version stays what it was.
    public static let feature = "participants"

    /// The longest id an entry names: a participant's id is 1 to 32 letters and digits, as is an invitation's.
    public static let maxIDCharacters = 32

    /// The kind's code in a journal record (docs/JOURNAL.md): never renumbered.
    public var code: UInt8 {
        switch self {
        case .invited: 1
        case .withdrawn: 2
        case .joined: 3
        case .removed: 4
        case .left: 5
        }
    }

    /// The kind with `code`, nil for a code no release wrote.
    public init?(code: UInt8) {
        guard let kind = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = kind
    }

    /// What the id names: `invitation` for an invitation made or withdrawn, else `participant`.
    public var subject: String {
        switch self {
        case .invited, .withdrawn: "invitation"
        case .joined, .removed, .left: "participant"
        }
    }

    /// The log entry's summary: `invitation="j…"` or `participant="p…"`.
    public func summary(id: String) -> String { "\(subject)=\"\(id)\"" }

    /// Whether `id` can be an id an entry names: 1 to ``maxIDCharacters`` ASCII letters and digits (what an import
    /// of an untrusted export checks).
    public static func isValidID(_ id: String) -> Bool {
        let bytes = id.utf8
        return (1...maxIDCharacters).contains(bytes.count)
            && bytes.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }
}
