/// Writes the small JSON documents the app answers with (`{"accepted":1,"version":7}`, session bodies) without
/// JSONEncoder, which costs ~9 µs per tiny document here. Members are written in the order given; callers give
/// them sorted, as the API promises.
///
/// In the ``Form/encoder`` form it writes strings and numbers as ``SortedJSONEncoder`` does, so a type whose
/// encoding is hot can write its own text and hand it to a ``JSONTextEncoder`` in place of its `encode(to:)`.
public struct JSONWriter {
    /// How strings and numbers are written.
    public enum Form: Sendable {
        /// The API's bodies: `3.0` keeps its `.0`, and `\b` and `\f` are written as `\u0008` and `\u000c`.
        case api
        /// ``SortedJSONEncoder``'s (and Foundation's `JSONEncoder`'s): `3.0` as `3`, `\b` and `\f` short.
        case encoder
    }

    /// The document so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []
    private let form: Form

    /// Creates an empty document.
    public init(form: Form = .api, capacity: Int = 128) {
        self.form = form
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object (`{`), after a comma when it is not its container's first value.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Opens an array (`[`), after a comma when it is not its container's first value.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    /// Closes the array opened last.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma.removeLast()
    }

    /// Closes the object opened last.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
    }

    /// Writes a member's name and the colon; the next value written is its value.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    /// A string, quoted and escaped as the form says.
    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
    }

    /// An integer in decimal.
    public mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number, in Swift's shortest round-tripping form (`0.25`, `3.0`; `3` in the ``Form/encoder`` form).
    public mutating func number(_ value: Double) {
        separate()
        bytes.append(contentsOf: (form == .encoder ? JSONNode.numberText(value) : value.description).utf8)
    }

    /// `true` or `false`.
    public mutating func boolean(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// A value that is JSON text already (an encoded document, a member cut out of one), written as it is.
    public mutating func raw(_ json: some Collection<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendQuoted(_ text: String) {
        if form == .encoder { return JSONNode.appendQuoted(text, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
            bytes.append(contentsOf: text.utf8)  // nothing to escape: the common case
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes.append(contentsOf: "\\\"".utf8)
            case "\\": bytes.append(contentsOf: "\\\\".utf8)
            case "\n": bytes.append(contentsOf: "\\n".utf8)
            case "\r": bytes.append(contentsOf: "\\r".utf8)
            case "\t": bytes.append(contentsOf: "\\t".utf8)
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
