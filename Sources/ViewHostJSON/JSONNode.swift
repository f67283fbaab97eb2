/// One value of the tree being encoded; containers are filled in place as the value's `encode(to:)` runs.
/// Scalars sit inline in their container's slots, so only objects and arrays cost an allocation.
final class JSONNode {
    enum Slot {
        case null
        /// Text written as is: a number, `true`, `false`.
        case literal(String)
        case string(String)
        case node(JSONNode)
        /// A value's JSON text, written as is (``JSONTextEncoder``).
        case text([UInt8])
    }

    enum Content {
        case empty
        case scalar(Slot)
        case object([(key: String, slot: Slot)])
        case array([Slot])
    }

    var content = Content.empty
    /// The coding-keys type of an object (``KeyOrders`` keeps one member order per type).
    var keyType: ObjectIdentifier?
    /// Where this node sits, for coding paths (built only when an encoding asks for one).
    unowned let parent: JSONNode?
    let key: (any CodingKey)?

    init(parent: JSONNode?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: JSONNode? = self
        while let current = node, let key = current.key {
            path.append(key)
            node = current.parent
        }
        return path.reversed()
    }

    func set(_ slot: Slot) {
        content = .scalar(slot)
    }

    func append(member key: String, _ slot: Slot) {
        guard case .object(var members) = content else { return }
        content = .empty  // keep `members` uniquely referenced while appending
        members.append((key, slot))
        content = .object(members)
    }

    func append(element slot: Slot) {
        guard case .array(var elements) = content else { return }
        content = .empty
        elements.append(slot)
        content = .array(elements)
    }

    var count: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    /// Writes this value's JSON to `output`, objects' members in the order `orders` works out (by name).
    func write(to output: inout [UInt8], orders: inout KeyOrders) {
        switch content {
        case .empty:
            output.append(contentsOf: "{}".utf8)  // a value that encoded nothing, as JSONEncoder writes it
        case .scalar(let slot):
            JSONNode.write(slot, to: &output, orders: &orders)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONNode.write(element, to: &output, orders: &orders)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if KeyOrders.isOrdered(members) {
                for (index, member) in members.enumerated() {
                    JSONNode.write(member, first: index == 0, to: &output, orders: &orders)
                }
            } else {
                // Sorted by UTF-8 bytes; a key encoded twice keeps its last value, as a dictionary would.
                let order = orders.order(of: members, type: keyType)
                var first = true
                for (position, index) in order.enumerated() {
                    if position + 1 < order.count, members[order[position + 1]].key == members[index].key { continue }
                    JSONNode.write(members[index], first: first, to: &output, orders: &orders)
                    first = false
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// One member of an object, `"key":value`, after a comma unless it is the object's first.
    private static func write(
        _ member: (key: String, slot: Slot), first: Bool, to output: inout [UInt8], orders: inout KeyOrders
    ) {
        if !first { output.append(UInt8(ascii: ",")) }
        appendQuoted(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        write(member.slot, to: &output, orders: &orders)
    }

    static func write(_ slot: Slot, to output: inout [UInt8], orders: inout KeyOrders) {
        switch slot {
        case .null: output.append(contentsOf: "null".utf8)
        case .literal(let text): output.append(contentsOf: text.utf8)
        case .string(let text): appendQuoted(text, to: &output)
        case .node(let node): node.write(to: &output, orders: &orders)
        case .text(let bytes): output.append(contentsOf: bytes)
        }
    }

    /// A JSON string, escaped as Foundation's JSONWriter escapes (short forms for `\b \f \n \r \t`, `\u00XX` for
    /// other controls, `/` left alone).
    static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case 0x22: output.append(contentsOf: "\\\"".utf8)
                case 0x5C: output.append(contentsOf: "\\\\".utf8)
                case 0x08: output.append(contentsOf: "\\b".utf8)
                case 0x0C: output.append(contentsOf: "\\f".utf8)
                case 0x0A: output.append(contentsOf: "\\n".utf8)
                case 0x0D: output.append(contentsOf: "\\r".utf8)
                case 0x09: output.append(contentsOf: "\\t".utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(hex[Int(byte >> 4)])
                    output.append(hex[Int(byte & 0xF)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A finite number as JSONEncoder writes it (``numberText(_:)``); a non-finite one is refused, as JSONEncoder
    /// refuses it.
    static func number<Number: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: Number, at path: @autoclosure () -> [any CodingKey]
    ) throws -> String {
        guard value.isFinite else {
            throw SortedJSONEncoder.Unsupported(
                description: "non-finite number \(value) at \(path().map(\.stringValue))")
        }
        return numberText(value)
    }

    /// A number's text as JSONEncoder writes it: its shortest description, without a trailing `.0`.
    static func numberText<Number: BinaryFloatingPoint & CustomStringConvertible>(_ value: Number) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
