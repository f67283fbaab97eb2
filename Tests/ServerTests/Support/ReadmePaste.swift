import Foundation
import TestSupport

/// Pastes README commands into one `bash`, in order, as a reader pastes blocks into one shell (variables set by one
/// block are there for the next), and returns what each command printed on standard output.
struct ReadmePaste {
    /// What one paste printed.
    struct Run: CustomStringConvertible {
        /// Each command's standard output as lines, `\r` and empty lines left out (as the README leaves them out).
        var outputs: [[String]]
        var status: Int32
        var standardError: String

        var description: String { "status \(status); stderr:\n\(standardError)" }
    }

    /// Replacements made in each command before it runs: a port, a directory, a process id.
    var commandReplacements: [(String, String)] = []
    /// Replacements made in what the commands print, back to what the README shows.
    var outputReplacements: [(String, String)] = []

    private static let marker = "@@readme-command-done@@"

    /// Runs `commands` in `directory` and waits at most `timeout` (stretched by `TestDeadline.scale`) for them all.
    func run(_ commands: [String], in directory: String, timeout: Duration) async throws -> Run {
        // After each command, a newline (a README prompt starts a new line even after a body without one) and the
        // marker its output is cut at.
        let script = "cd '\(directory)'\n" + commands.map { command in
            commandReplacements.reduce(command) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
                + "\nprintf '\\n\(Self.marker)\\n'"
        }.joined(separator: "\n")
        let run = try await ServerProcess.run(executable: "bash", ["-c", script], timeout: timeout)
        let printed = outputReplacements.reduce(run.stdout.replacingOccurrences(of: "\r", with: "")) {
            $0.replacingOccurrences(of: $1.0, with: $1.1)
        }
        let outputs = printed.components(separatedBy: "\n\(Self.marker)\n").prefix(commands.count).map { part in
            part.split(separator: "\n").map(String.init)
        }
        return Run(outputs: Array(outputs), status: run.status, standardError: run.stderr)
    }
}
