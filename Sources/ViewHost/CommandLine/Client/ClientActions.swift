import ArgumentParser
import Foundation
import ViewHostAPI
import ViewHostClient

/// `viewhost client actions FEATURE`: lists the actions a feature's snapshot offers now.
struct ClientActions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions", abstract: "List the actions a feature's snapshot offers, as send would post them.")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The feature, such as chat (a session's features are the names of its links).")
    var feature: String

    func run() async throws {
        try await ClientFailure.reporting {
            let snapshot = try await options.openSession().snapshot(feature: try ClientOptions.feature(feature))
            let offered = try OfferedAction.all(in: snapshot.json)
            if options.json {
                let list = offered.map { offer -> [String: JSONDocument] in
                    var body = offer.action.fields.mapValues(JSONDocument.string)
                    body["type"] = .string(offer.action.event)
                    return [
                        "path": .string(offer.path), "event": .string(offer.action.event),
                        "enabled": .bool(offer.action.isEnabled), "href": .string(offer.action.href ?? ""),
                        "body": .object(body),
                    ]
                }
                print(String(decoding: try JSONEncoder.sorted.encode(list), as: UTF8.self))
                return
            }
            let width = offered.map(\.path.count).max() ?? 0
            for offer in offered {
                let fields = offer.action.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let line =
                    [
                        offer.path.padding(toLength: width, withPad: " ", startingAt: 0),
                        "send \(feature) \(offer.action.event)",
                    ] + fields + (offer.action.isEnabled ? [] : ["(disabled)"])
                print(line.joined(separator: "  "))
            }
        }
    }
}
