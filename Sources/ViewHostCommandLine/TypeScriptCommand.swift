import ArgumentParser
import Foundation
import ViewHost
import ViewModelCore

/// `viewhost typescript`: prints the TypeScript types of the app's features (snapshots, intents as a union
/// discriminated by `type`, the `Features` map the TypeScript client takes), written from the same schemas as
/// `/openapi.json` (``TypeScriptModule``). Features that cannot be served together: one line, exit 78.
struct TypeScriptCommand: AsyncParsableCommand, FeatureHostingCommand {
    static let configuration = CommandConfiguration(
        commandName: "typescript",
        abstract: "Print the TypeScript types of the app's features (from the schemas of /openapi.json).")

    /// Without the app's features (argument-parser's entry): a module without features.
    func run() async throws {
        try await run(features: [])
    }

    func run(features: [FeatureRegistration]) async throws {
        let hosted: HostedFeatures
        do {
            // Every setting at its default: the features' wire types do not depend on them.
            hosted = try HostedFeatures(features, settings: FixedFeatureSettings())
        } catch {
            FileHandle.standardError.write(Data("viewhost: \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
        FileHandle.standardOutput.write(Data(TypeScriptModule.source(features: hosted).utf8))
    }
}
