import ViewHostAPI

/// How the data-flow log shows an event.
public struct EventDescription: Sendable, Equatable {
    /// The event's name as the original names it, such as `sending` or `changeLocation`.
    public var name: String
    /// A short payload summary, such as `contact=John text="Hi"` (truncated).
    public var summary: String

    /// Creates a description; `summary` is cut to 120 UTF-8 bytes (see ``shortened(_:maxBytes:)``).
    public init(name: String, summary: String = "") {
        self.name = name
        self.summary = Self.shortened(summary, maxBytes: 120)
    }

    /// `value` itself when it has at most `maxBytes` UTF-8 bytes; otherwise its longest prefix of whole Unicode
    /// code points within `maxBytes - 1` bytes, then `…`. It cuts on a code point, not a grapheme cluster: one
    /// "character" of 450,000 combining marks is still cut to a few bytes. Costs O(maxBytes), whatever the length.
    public static func shortened(_ value: String, maxBytes: Int) -> String {
        guard value.utf8.count > maxBytes else { return value }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in value.unicodeScalars {
            let width = UTF8.width(scalar)
            guard used + width < maxBytes else { break }
            kept.append(scalar)
            used += width
        }
        return String(kept) + "…"
    }
}

extension EventDescription {
    /// The description `event`'s own `Encodable` gives, for a feature that does not write ``Feature/describe(_:)``.
    ///
    /// The name is the intent's `type` (`{"type":"add","title":"Milk"}`), or the case of an enum encoded as Swift
    /// synthesizes it (`{"add":{"title":"Milk"}}`, `{"undo":{}}`), or the event's type name; the summary lists the
    /// other members as `title="Milk" votes=3` (strings quoted and cut to 32 UTF-8 bytes, a nested list or object
    /// as `[…]` or `{…}`, an unlabelled value without its `_0`), cut to 120 bytes as every summary is.
    ///
    /// - Important: Every member is shown: describe an event that carries a secret yourself (the login feature
    ///   shows a password's length only).
    public init(deriving event: some Encodable) {
        let captured: CapturedValue
        do {
            captured = try CapturingEncoder.capture(event)
        } catch {
            // An event that cannot encode cannot be journaled either (its commit reports that); the log names it.
            self.init(name: String(describing: type(of: event)), summary: "does not encode: \(error)")
            return
        }
        switch captured {
        case .object(let members):
            if case .string(let type)? = captured["type"] {
                self.init(name: type, summary: Self.summary(of: members.filter { $0.key != "type" }))
            } else if members.count == 1, let (name, value) = members.first, let fields = value.members {
                self.init(name: name, summary: Self.summary(of: fields))
            } else {
                self.init(name: String(describing: type(of: event)), summary: Self.summary(of: members))
            }
        case .string(let name):
            self.init(name: name)
        default:
            self.init(name: String(describing: type(of: event)), summary: Self.text(of: captured))
        }
    }

    private static func summary(of members: [(key: String, value: CapturedValue)]) -> String {
        members.map { member in
            let isUnlabelled = member.key.hasPrefix("_") && member.key.dropFirst().allSatisfy(\.isNumber)
            return isUnlabelled ? text(of: member.value) : "\(member.key)=\(text(of: member.value))"
        }.joined(separator: " ")
    }

    private static func text(of value: CapturedValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .string(let text): "\"\(shortened(text, maxBytes: 32))\""
        case .array: "[…]"
        case .object: "{…}"
        }
    }
}
