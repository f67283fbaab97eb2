/// An RFC 9457 problem document: `{"type","title","status","detail"}`, plus `errors: [{"field","message"}]`
/// for validation problems and any extra string-list members. Keys are written sorted, so bytes are stable.
public struct ProblemDetails: Sendable, Equatable {
    /// One field at fault.
    public struct FieldError: Sendable, Equatable {
        /// The JSON path or header name of the field, such as `contact` or `events[1].type`.
        public var field: String
        /// What is wrong with it.
        public var message: String

        /// Creates a field error.
        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// The problem type URI; `about:blank` when the status says it all.
    public var type: String
    /// A short summary of the problem type, the status's reason phrase unless given.
    public var title: String
    /// The status of the answer, repeated in the document as its code.
    public var status: HTTPStatus
    /// This occurrence in a sentence for the client; left out of the document when nil.
    public var detail: String?
    /// The fields at fault, written as `errors` only when there are some.
    public var errors: [FieldError]
    /// Extension members whose values are lists of strings, such as `"allowed": ["send","back"]`; a name that
    /// clashes with a standard member is left out.
    public var lists: [String: [String]]
    /// Extension members whose values are integers, such as `"oldestVersion": 12`; a name that clashes with a
    /// standard member is left out.
    public var integers: [String: Int]

    /// Creates a problem.
    /// - Parameters:
    ///   - type: The problem type URI, `about:blank` by default.
    ///   - status: The status; the title is its reason phrase unless given.
    ///   - title: A short summary.
    ///   - detail: This occurrence, in a sentence.
    ///   - errors: Fields at fault.
    ///   - lists: Extension members with string-list values.
    ///   - integers: Extension members with integer values.
    public init(
        type: String = "about:blank", status: HTTPStatus, title: String? = nil, detail: String? = nil,
        errors: [FieldError] = [], lists: [String: [String]] = [:], integers: [String: Int] = [:]
    ) {
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.status = status
        self.detail = detail
        self.errors = errors
        self.lists = lists
        self.integers = integers
    }

    /// The document as JSON bytes, keys sorted.
    public var json: [UInt8] {
        var members: [(String, String)] = [
            ("type", JSONText.quoted(type)), ("title", JSONText.quoted(title)), ("status", String(status.code)),
        ]
        if let detail { members.append(("detail", JSONText.quoted(detail))) }
        if !errors.isEmpty {
            let items = errors.map {
                "{\"field\":\(JSONText.quoted($0.field)),\"message\":\(JSONText.quoted($0.message))}"
            }
            members.append(("errors", "[\(items.joined(separator: ","))]"))
        }
        for (key, values) in lists where !members.contains(where: { $0.0 == key }) {
            members.append((key, "[\(values.map(JSONText.quoted).joined(separator: ","))]"))
        }
        for (key, value) in integers where !members.contains(where: { $0.0 == key }) {
            members.append((key, String(value)))
        }
        members.sort { $0.0 < $1.0 }
        let body = members.map { "\(JSONText.quoted($0.0)):\($0.1)" }.joined(separator: ",")
        return Array("{\(body)}".utf8)
    }

    /// The response that carries this document.
    public var response: HTTPResponse {
        HTTPResponse(status: status, contentType: "application/problem+json", bytes: json)
    }
}

/// JSON string quoting (RFC 8259 §7), for the few documents HTTPCore writes itself.
package enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
