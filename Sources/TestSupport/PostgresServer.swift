import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for tests: `initdb` in a temporary directory, `pg_ctl start` listening on a Unix
/// socket in that directory only (no TCP port, so tests never collide), one database `viewhost`. Run as the
/// `postgres` user when the tests run as root (PostgreSQL refuses root). ``stop()`` (or deinit) stops it by the
/// pid in its `postmaster.pid` and removes the directory. Every wait runs off the test's task (see ``OffThread``).
///
/// `@unchecked Sendable`: one test uses one server, one call at a time.
public final class PostgresServer: @unchecked Sendable {
    /// Why the server could not be started.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with the command's output when it printed some.
        public let description: String
    }

    /// The temporary directory (data in `data/`, the socket and the log beside it).
    public let directory: String
    /// libpq's URI for database `viewhost`.
    public var url: String { "postgres://postgres@/\(database)?host=\(directory)" }
    /// A URI for another database on the same server (see ``createDatabase(_:)``).
    public func url(database name: String) -> String { "postgres://postgres@/\(name)?host=\(directory)" }
    private let database = "viewhost"
    private let binaries: String
    private var stopped = false

    /// Starts a server (a few seconds: initdb, start, createdb).
    public init() async throws {
        guard
            let version = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
                .compactMap({ Int($0) }).max()
        else { throw StartError(description: "PostgreSQL is not installed (Debian package postgresql)") }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        var template = Array("/tmp/viewhost-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw StartError(description: "mkdtemp failed") }
        directory = String(cString: made)
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw StartError(description: "no postgres user (Debian package postgresql makes it)")
            }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        do {
            try await run(
                "initdb", ["-D", "\(directory)/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
            try await run(
                "pg_ctl",
                [
                    "start", "-w", "-t", "30", "-D", "\(directory)/data", "-l", "\(directory)/log",
                    "-o", "-k \(directory) -c listen_addresses='' -c max_connections=200",
                ])
            try await run("createdb", ["-h", directory, "-U", "postgres", database])
        } catch {
            await stop()
            throw error
        }
    }

    /// A server nobody stopped is stopped on a thread of its own: a deinit that waited for PostgreSQL to exit would
    /// block one of the cooperative pool's two threads, and every in-process server's handlers with it.
    deinit {
        guard !stopped else { return }
        let (pid, directory) = (pid, directory)
        Thread.detachNewThread { Self.stop(pid: pid, directory: directory) }
    }

    /// Makes database `name` on this server.
    public func createDatabase(_ name: String) async throws {
        try await run("createdb", ["-h", directory, "-U", "postgres", name])
    }

    /// Runs `statement` with psql in database `viewhost`; returns its unaligned output.
    @discardableResult
    public func psql(_ statement: String) async throws -> String {
        try await run(
            "psql",
            ["-h", directory, "-U", "postgres", "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", statement])
    }

    /// The postmaster's pid, while it runs.
    public var pid: pid_t? {
        guard let text = try? String(contentsOfFile: "\(directory)/data/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first, let pid = pid_t(first)
        else { return nil }
        return pid
    }

    /// Stops the server (fast shutdown, by pid) and removes its directory.
    public func stop() async {
        _ = try? await OffThread.run { self.stopBlocking() }
    }

    private func stopBlocking() {
        guard !stopped else { return }
        stopped = true
        Self.stop(pid: pid, directory: directory)
    }

    private static func stop(pid: pid_t?, directory: String) {
        if let pid {
            kill(pid, SIGINT)
            let deadline = TestDeadline.after(.seconds(20))
            while kill(pid, 0) == 0, ContinuousClock.now < deadline { usleep(20_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let executable = "\(binaries)/\(tool)"
        let (command, argv) =
            getuid() == 0
            ? ("setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", executable] + arguments)
            : (executable, arguments)
        let result = try await ServerProcess.run(executable: command, argv, timeout: .seconds(60))
        guard result.status == 0 else {
            throw StartError(description: "\(tool) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout
    }
}
