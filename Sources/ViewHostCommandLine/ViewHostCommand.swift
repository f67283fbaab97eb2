import ArgumentParser
import Foundation
import ViewHost
import ViewHostCrypto
import ViewModelCore

/// `viewhost`: the command-line front end an app's `main` hands over to, with the features it serves. `serve` is
/// the default subcommand; `backup`, `check`, `repair` and `client` work on any app's store and server,
/// `replay` on any app's journal exports, and `typescript` prints the TypeScript types of the app's features. The
/// command goes by the app's name (the executable's, unless `main` gives one): its usage, its error lines, its log
/// and its readiness line (`todo-server listening on http://…`).
///
/// ```swift
/// import ViewHost
/// import NotesFeature
///
/// await ViewHostCommand.run(features: [.notes])
/// ```
public struct ViewHostCommand: AsyncParsableCommand {
    /// The command, named for the app that runs it (``run(features:name:version:database:)``).
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandFeatures.name,
            abstract: "Hosts per-session MVVM view models over HTTP/1.1 and serves their snapshots as JSON.",
            version: CommandFeatures.version,
            subcommands: [
                Serve.self, Backup.self, Check.self, Repair.self, Replay.self, ClientCommand.self,
                TypeScriptCommand.self,
            ],
            defaultSubcommand: Serve.self
        )
    }

    /// Creates the command (argument-parser needs it).
    public init() {}
}

extension ViewHostCommand {
    /// Parses the process's arguments and runs the subcommand they name, serving `features`: what an app's `main`
    /// calls. It exits the process when the command ends (0, or the command's sysexits code).
    /// - Parameters:
    ///   - features: The features the app serves, in the order snapshots and the page list them.
    ///   - name: The app's name in its usage, error lines, log and readiness line; by default the executable's
    ///     (`todo-server`; `viewhost` for the `viewhost` binary).
    ///   - version: The app's version, which `--version` prints after the name; without one it prints the name
    ///     and the ViewHost release it is built on (`todo-server (ViewHost 0.2.0)`).
    ///   - database: The database store the app offers as `--store postgres`: `.postgres` from the
    ///     ViewHostPostgres product; without one, `--store postgres` is refused (exit 78) and libpq is not linked.
    public static func run(
        features: [FeatureRegistration], name: String? = nil, version: String? = nil, database: DatabaseStorage? = nil
    ) async -> Never {
        // First of all: OpenSSL's state is kept until the process is gone (no clean-up while threads still use it).
        OpenSSLLifetime.keepUntilExit()
        let name = name ?? executableName
        let version = version.map { "\(name) \($0)" } ?? "\(name) (ViewHost \(ViewHostVersion.current))"
        // The status comes out of the task-locals and the process exits here: an async call that never returns
        // was warned about ("will never be executed") at each closure that made it.
        let status = await CommandFeatures.$name.withValue(name) {
            await CommandFeatures.$version.withValue(version) {
                await CommandFeatures.$database.withValue(database) {
                    await run(features)
                }
            }
        }
        Foundation.exit(status)
    }

    /// The executable's name, as the process was started (`viewhost` when it cannot be told).
    static var executableName: String {
        let name = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
        return name.isEmpty ? "viewhost" : name
    }

    /// Runs the command the arguments name; returns the exit status, having said what there is to say.
    private static func run(_ features: [FeatureRegistration]) async -> Int32 {
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
            return ExitCode.success.rawValue
        } catch {
            let message = fullMessage(for: error)
            let code = exitCode(for: error)
            if code == .success {
                // `serve --help`: the feature's options (`--weather-provider`) are the app's, so they are listed here.
                let help =
                    message.contains("USAGE: \(CommandFeatures.name) serve") ? Serve.featureOptionsHelp(features) : ""
                if !message.isEmpty { print(message + help) }
            } else if !message.isEmpty {
                FileHandle.standardError.write(Data((message + "\n").utf8))
            }
            return code.rawValue
        }
    }
}

/// A subcommand that needs the app's features (`serve` hosts them; the client names them in its help).
protocol FeatureHostingCommand: ParsableCommand {
    /// Runs with the app's features.
    mutating func run(features: [FeatureRegistration]) async throws
}
