import ArgumentParser
import Foundation
import ViewHost
import ViewHostClient

/// `viewhost client session new`: creates a session and prints its id and token.
struct ClientSessionNew: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Create a session and print its id and token.")

    @OptionGroup var options: ClientOptions

    @Option(name: .customLong("feature"), help: "A feature the session hosts (repeat it; default: all).")
    var features: [String] = []

    @Option(help: "The session's IANA time zone, such as Europe/Tallinn.")
    var timeZone: String?

    func run() async throws {
        try await ClientFailure.reporting {
            let session = try await options.client().createSession(
                features: features.isEmpty ? nil : try features.map(ClientOptions.feature), timeZone: timeZone)
            if options.json {
                let fields = ["expiresAt": session.expiresAt ?? "", "id": session.id, "token": session.token]
                print(String(decoding: try JSONEncoder.sorted.encode(fields), as: UTF8.self))
            } else {
                print("session  \(session.id)")
                print("token    \(session.token)")
                print("expires  \(session.expiresAt ?? "-")")
                print("export VIEWHOST_SESSION=\(session.id) VIEWHOST_TOKEN=\(session.token)")
            }
        }
    }
}
