import ArgumentParser
import Foundation

/// `viewhost client session …`: sessions themselves.
struct ClientSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Create sessions.", subcommands: [ClientSessionNew.self])
}
