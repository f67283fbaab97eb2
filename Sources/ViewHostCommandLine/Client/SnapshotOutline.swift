import ViewHost
/// A snapshot as indented `key: value` lines for people: keys sorted, arrays as `- ` items, and without its
/// `actions` (`viewhost client actions` lists those).
enum SnapshotOutline {
    /// The lines of `document`'s members, `feature` and `version` left out.
    static func lines(of document: JSONDocument) -> [String] {
        guard case .object(var members) = document else { return [document.scalarText ?? ""] }
        members["feature"] = nil
        members["version"] = nil
        var lines: [String] = []
        append(.object(members), indent: "", to: &lines)
        return lines
    }

    private static func append(_ value: JSONDocument, indent: String, to lines: inout [String]) {
        switch value {
        case .object(let members):
            for key in members.keys.sorted() where key != "actions" {
                let member = members[key]!
                if let text = member.scalarText {
                    lines.append("\(indent)\(key): \(text)")
                } else {
                    lines.append("\(indent)\(key):")
                    append(member, indent: indent + "  ", to: &lines)
                }
            }
        case .array(let items):
            for item in items {
                if let text = item.scalarText {
                    lines.append("\(indent)- \(text)")
                } else {
                    var nested: [String] = []
                    append(item, indent: indent + "  ", to: &nested)
                    if let first = nested.first {
                        nested[0] = indent + "- " + first.dropFirst(indent.count + 2)
                    }
                    lines.append(contentsOf: nested)
                }
            }
        default:
            lines.append(indent + (value.scalarText ?? ""))
        }
    }
}
