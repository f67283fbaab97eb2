import ArgumentParser
import Foundation
import ViewHost

/// `viewhost client session …`: sessions themselves.
struct ClientSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Create sessions.", subcommands: [ClientSessionNew.self])

    /// Without a subcommand: the help, on stderr, as a usage error.
    func run() async throws {
        try ClientFailure.helpAsUsageError(Self.self)
    }
}
