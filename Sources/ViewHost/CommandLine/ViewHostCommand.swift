import ArgumentParser
import Foundation
import ViewModelCore

/// `viewhost`: the command-line front end an app's `main` hands over to, with the features it serves. `serve` is
/// the default subcommand; `backup`, `check`, `repair` and `client` work on any app's store and server,
/// `replay` on any app's journal exports, and `typescript` prints the TypeScript types of the app's features.
///
/// ```swift
/// import ViewHost
/// import NotesFeature
///
/// await ViewHostCommand.run(features: [.notes])
/// ```
public struct ViewHostCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "viewhost",
        abstract: "Hosts per-session MVVM view models over HTTP/1.1 and serves their snapshots as JSON.",
        version: "viewhost \(ViewHostVersion.current)",
        subcommands: [
            Serve.self, Backup.self, Check.self, Repair.self, Replay.self, ClientCommand.self, TypeScriptCommand.self,
        ],
        defaultSubcommand: Serve.self
    )

    /// Creates the command (argument-parser needs it).
    public init() {}
}

extension ViewHostCommand {
    /// Parses the process's arguments and runs the subcommand they name, serving `features`: what an app's `main`
    /// calls. It exits the process when the command ends (0, or the command's sysexits code).
    /// - Parameter features: The features the app serves, in the order snapshots and the page list them.
    public static func run(features: [FeatureRegistration]) async -> Never {
        do {
            var command = try parseAsRoot()
            try await CommandFeatures.$registrations.withValue(features) {
                if var hosting = command as? any FeatureHostingCommand {
                    try await hosting.run(features: features)
                } else if var asynchronous = command as? any AsyncParsableCommand {
                    try await asynchronous.run()
                } else {
                    try command.run()
                }
            }
            exit(withError: nil)
        } catch {
            // `serve --help`: the feature's options (`--weather-provider`) are the app's, so they are listed here.
            let message = fullMessage(for: error)
            if exitCode(for: error) == .success, message.contains("USAGE: viewhost serve") {
                print(message + Serve.featureOptionsHelp(features))
                Foundation.exit(0)
            }
            exit(withError: error)
        }
    }
}

/// A subcommand that needs the app's features (`serve` hosts them; the client names them in its help).
protocol FeatureHostingCommand: ParsableCommand {
    /// Runs with the app's features.
    mutating func run(features: [FeatureRegistration]) async throws
}
