import ArgumentParser
import Foundation
import ViewHost
import ViewHostAPI
import ViewHostClient

/// `viewhost client send FEATURE EVENT [key=value …]`: posts one event.
struct ClientSend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send one event to a feature, such as 'send chat openChat contact=John'.")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The feature, such as chat (a session's features are the names of its links).")
    var feature: String

    @Argument(help: "The event type, such as addChat (see 'viewhost client actions FEATURE').")
    var event: String

    @Argument(
        help:
            "The event's fields: key=text for a string, key:=JSON for another value (votes:=3, done:=true, note:=null)."
    )
    var fields: [String] = []

    func run() async throws {
        try await ClientFailure.reporting {
            var body: [String: ActionValue] = ["type": .string(event)]
            for field in fields {
                let (key, value) = try Self.field(field)
                guard key != "type" else {
                    throw ClientFailure.usage("the event type is the EVENT argument, not type=")
                }
                guard body.updateValue(value, forKey: key) == nil else {
                    throw ClientFailure.usage("'\(key)' is given twice; an event has one value per field")
                }
            }
            let receipt = try await options.openSession().send(feature: try ClientOptions.feature(feature), event: body)
            if options.json {
                print(String(decoding: try JSONEncoder.sorted.encode(receipt), as: UTF8.self))
            } else {
                print(
                    "accepted \(receipt.accepted) event\(receipt.accepted == 1 ? "" : "s"); \(feature) version \(receipt.version)"
                        + (receipt.replayed ? " (replayed)" : ""))
            }
        }
    }

    /// `key=text` as a string field, `key:=JSON` as a JSON scalar (a number, `true`, `false`, `null` or a quoted
    /// string).
    static func field(_ field: String) throws -> (String, ActionValue) {
        guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
            throw ClientFailure.usage("'\(field)' is not key=value")
        }
        let text = String(field[field.index(after: equals)...])
        let key = field[..<equals]
        guard key.hasSuffix(":") else { return (String(key), .string(text)) }
        guard key.count > 1, let value = try? JSONDecoder().decode(ActionValue.self, from: Data(text.utf8)) else {
            throw ClientFailure.usage("'\(field)' is not key:=JSON (a number, true, false, null or a \"string\")")
        }
        return (String(key.dropLast()), value)
    }
}
