import ArgumentParser
import Foundation
import ViewHost
import ViewHostClient

/// How `viewhost client` fails: one line on stderr and a sysexits(3) status.
enum ClientFailure: Error {
    /// A usage error the parser cannot see (no session, a malformed `key=value`): exit 64.
    case usage(String)
    /// What the command waited for did not come in time: exit 75.
    case notYet(String)

    /// Runs `body`; a failure prints one line (`viewhost: 409 Conflict: …`) and exits with its status.
    static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ViewHostError {
            if error.kind == .sessionEnded {
                printError("\(CommandFeatures.name): \(error.detail)")
                return
            }
            var line = "\(CommandFeatures.name): \(error)"
            let allowed = error.allowed.joined(separator: ", ")
            if !allowed.isEmpty, !error.detail.contains(allowed) { line += " (allowed: \(allowed))" }
            printError(line)
            throw ExitCode(exitCode(for: error))
        } catch ClientFailure.usage(let message) {
            printError("\(CommandFeatures.name): \(message)")
            throw ExitCode(64)
        } catch ClientFailure.notYet(let message) {
            printError("\(CommandFeatures.name): \(message)")
            throw ExitCode(75)
        }
    }

    /// The sysexits(3) status for `error`.
    static func exitCode(for error: ViewHostError) -> Int32 {
        switch error.kind {
        case .problem:
            switch error.status ?? 0 {
            case 400, 413, 415, 422: 65  // EX_DATAERR: the input was refused
            case 401, 403: 77  // EX_NOPERM
            case 404, 410: 67  // EX_NOUSER: no such session (or it expired)
            // A 409 that says to retry (its request is still in flight) is transient; one the state refuses is not.
            case 409 where error.retryAfter == nil: 65  // EX_DATAERR: refused in this state (the allowed are listed)
            case 409, 429, 503: 75  // EX_TEMPFAIL: the server may allow it later
            default: 69  // EX_UNAVAILABLE
            }
        case .transport: 69  // EX_UNAVAILABLE
        case .invalidResponse: 76  // EX_PROTOCOL
        case .invalidRequest: 64  // EX_USAGE
        case .sessionEnded, .cancelled: 0
        }
    }

    /// A command group run without its subcommand: its help on stderr and exit 64, as any usage error (not the
    /// help on stdout and exit 0 a script would take for success).
    static func helpAsUsageError(_ command: any ParsableCommand.Type) throws -> Never {
        FileHandle.standardError.write(Data((command.helpMessage(columns: nil) + "\n").utf8))
        throw ExitCode(64)
    }

    /// Writes `line` and a newline to stderr.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
