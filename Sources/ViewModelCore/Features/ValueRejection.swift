import Foundation
import ViewHostAPI

/// Why a feature's state or event, read from outside (a journal export's header or records), is not one the
/// feature could have made itself: a count past the feature's own cap, a text past a field's limit, a setting it
/// never sets. An import refuses it (`422` naming the line and the field); see ``Feature/validate(state:)``.
public struct ValueRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where in the value, as its `Codable` shape names it: `model.chats["John"].messages`, `firstName`.
    public var field: String
    /// What is wrong, as a sentence fragment after the field: "holds 600 messages, more than the 500 a chat keeps".
    public var reason: String

    /// Creates a rejection.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// The field, then the reason ("messages[2].text is longer than 500 characters"); the reason alone without a field.
    public var description: String { field.isEmpty ? reason : "\(field) \(reason)" }

    /// The same rejection one level further out: `prefix` before its field.
    public func inside(_ prefix: String) -> ValueRejection {
        ValueRejection(
            field: field.isEmpty ? prefix : field.hasPrefix("[") ? prefix + field : "\(prefix).\(field)", reason: reason
        )
    }
}

/// Checks a feature's ``Feature/validate(state:)`` and ``Feature/validate(event:)`` are written with: each throws
/// a ``ValueRejection`` naming `field` when the value is out of bounds.
extension ValueRejection {
    /// Runs `check`, naming what it refuses as inside `field`: `try ValueRejection.inside("items[2]") { try … }`.
    public static func inside(_ field: String, _ check: () throws -> Void) throws(ValueRejection) {
        do {
            try check()
        } catch let error as ValueRejection {
            throw error.inside(field)
        } catch {
            throw ValueRejection(field: field, reason: "\(error)")
        }
    }

    /// Refuses `text` past `limit` (the limit its intent decodes it with).
    public static func check(_ text: String, within limit: TextLimit, field: String) throws(ValueRejection) {
        if let violation = limit.violation(of: text) { throw ValueRejection(field: field, reason: violation) }
    }

    /// Refuses `count` items past `limit`.
    public static func check(count: Int, atMost limit: Int, field: String) throws(ValueRejection) {
        guard count <= limit else {
            throw ValueRejection(field: field, reason: "holds \(count) items, more than the \(limit) kept")
        }
    }

    /// Refuses `value` outside `range`.
    public static func check(_ value: Int, in range: ClosedRange<Int>, field: String) throws(ValueRejection) {
        guard range.contains(value) else {
            throw ValueRejection(
                field: field, reason: "must be \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
    }

    /// The instants a value read from outside may hold: the years 1 to 9999, which every date formatter renders.
    public static let dates =
        Date(timeIntervalSinceReferenceDate: -63_113_904_000)...Date(timeIntervalSinceReferenceDate: 252_423_993_599)

    /// Refuses an instant outside ``dates``.
    public static func check(_ date: Date, field: String) throws(ValueRejection) {
        guard dates.contains(date) else {
            throw ValueRejection(field: field, reason: "must be an instant of the years 1 to 9999")
        }
    }
}
