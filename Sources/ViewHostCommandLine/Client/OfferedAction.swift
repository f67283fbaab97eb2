import Foundation
import ViewHost
import ViewHostAPI

/// An action a snapshot offers, found by walking its JSON, named by where it sits (`chatList.chats[0].itemTapped`).
struct OfferedAction {
    /// Where it sits: the path of its `actions` object, then its name.
    let path: String
    /// The action.
    let action: ActionDescriptor

    /// Every action in `json`, in document order (keys sorted).
    static func all(in json: Data) throws -> [OfferedAction] {
        var found: [OfferedAction] = []
        collect(try JSONDocument.parse(json), path: "", into: &found)
        return found
    }

    private static func collect(_ value: JSONDocument, path: String, into found: inout [OfferedAction]) {
        switch value {
        case .object(let members):
            for key in members.keys.sorted() {
                let member = members[key]!
                if key == "actions", case .object(let actions) = member {
                    for name in actions.keys.sorted() {
                        guard let data = try? JSONEncoder().encode(actions[name]!),
                            let action = try? JSONDecoder().decode(ActionDescriptor.self, from: data)
                        else { continue }
                        found.append(OfferedAction(path: path.isEmpty ? name : "\(path).\(name)", action: action))
                    }
                } else {
                    collect(member, path: path.isEmpty ? key : "\(path).\(key)", into: &found)
                }
            }
        case .array(let items):
            for (index, item) in items.enumerated() { collect(item, path: "\(path)[\(index)]", into: &found) }
        default:
            break
        }
    }
}
