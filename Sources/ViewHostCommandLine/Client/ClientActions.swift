import ArgumentParser
import Foundation
import ViewHost
import ViewHostAPI
import ViewHostClient

/// `viewhost client actions FEATURE`: lists the actions a feature's snapshot offers now.
struct ClientActions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions", abstract: "List the actions a feature's snapshot offers, as send would post them.")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The feature, such as chat (a session's features are the names of its links).")
    var feature: String

    @Option(
        name: .customLong("wait-for"),
        help: "Wait until the snapshot offers this action (a path as listed, such as chatList.chats[0].itemTapped).")
    var waitFor: String?

    @Option(name: .customLong("wait-seconds"), help: "How long --wait-for waits before exiting 75.")
    var waitSeconds: Double = 30

    func validate() throws {
        if !(waitSeconds > 0) { throw ValidationError("--wait-seconds must be more than 0") }
    }

    func run() async throws {
        try await ClientFailure.reporting {
            let session = try options.openSession()
            let name = try ClientOptions.feature(feature)
            let json =
                if let waitFor {
                    try await Self.snapshot(of: name, offering: waitFor, in: session, within: waitSeconds)
                } else {
                    try await session.snapshot(feature: name).json
                }
            let offered = try OfferedAction.all(in: json)
            if options.json {
                let list = offered.map { offer -> [String: JSONDocument] in
                    var body = offer.action.fields.mapValues(JSONDocument.init)
                    body["type"] = .string(offer.action.event)
                    var listed: [String: JSONDocument] = [
                        "path": .string(offer.path), "event": .string(offer.action.event),
                        "enabled": .bool(offer.action.isEnabled), "href": .string(offer.action.href ?? ""),
                        "body": .object(body),
                    ]
                    // As the snapshot says it: only placeholders that take something other than any string, each
                    // as JSON Schema states it ({"type":"integer"}).
                    let typed = offer.action.placeholders.filter { $0.type != .string }
                    if !typed.isEmpty {
                        listed["inputs"] = .object(
                            Dictionary(typed.map { ($0.name, JSONDocument($0.type)) }, uniquingKeysWith: { $1 }))
                    }
                    return listed
                }
                print(String(decoding: try JSONEncoder.sorted.encode(list), as: UTF8.self))
                return
            }
            let width = offered.map(\.path.count).max() ?? 0
            for offer in offered {
                let fields = offer.action.fields.sorted { $0.key < $1.key }.map { Self.argument($0.key, $0.value) }
                // What a typed placeholder takes, so the line can be pasted with a value in its place.
                let takes = offer.action.placeholders.filter { $0.type != .string }
                    .map { "({\($0.name)}: \($0.type.phrase))" }
                let line =
                    [
                        offer.path.padding(toLength: width, withPad: " ", startingAt: 0),
                        // An invitation action posts to the session's invitations, not to the feature's events.
                        offer.action.target == .invitations
                            ? "invite \(offer.action.event) features=\(offer.action.features.joined(separator: ","))"
                            : "send \(feature) \(offer.action.event)",
                    ] + fields + takes + (offer.action.isEnabled ? [] : ["(disabled)"])
                print(line.joined(separator: "  "))
            }
        }
    }

    /// A field as `send` takes it: `key=text` for a string (and a string placeholder), `key:=JSON` for any other
    /// value (`votes:=3`, `votes:={votes}` for an integer placeholder).
    static func argument(_ key: String, _ value: ActionValue) -> String {
        let isText =
            switch value {
            case .string: true
            case .placeholder(let placeholder): placeholder.type.takesString
            case .integer, .number, .bool, .null: false
            }
        return isText ? "\(key)=\(value)" : "\(key):=\(value)"
    }

    /// The first snapshot of `feature` (the current one, then each change) that offers the action at `path`: a
    /// chat's list loads half a second of simulated time after the session is made, so a script pasted at once
    /// waits for it instead of failing on what is not there yet.
    static func snapshot(
        of feature: String, offering path: String, in session: ViewHostSession, within seconds: Double
    ) async throws -> Data {
        let found = try await withThrowingTaskGroup(of: Data?.self) { group in
            group.addTask {
                for try await change in session.changes(features: [feature])
                where try OfferedAction.all(in: change.json).contains(where: { $0.path == path }) {
                    return change.json
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded())))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let found else {
            throw ClientFailure.notYet("the \(feature) snapshot did not offer \(path) within \(seconds.formatted()) s")
        }
        return found
    }
}
