import CSystemShim
import Foundation
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// The real `viewhost` binary, started as a child process, for tests of the process contract: readiness line,
/// signals, exit codes.
///
/// It starts children with `posix_spawn` and reads their output through pipes by hand: Foundation's `Process`
/// on this toolchain can crash the test process in `run()` (swift-corelibs-foundation#5472). Every wait (for the
/// readiness line, for an exit) happens on a thread of its own (`OffThread`), never on the test's task. How many
/// run at once is bounded (``ProcessSlots``): servers in ``servers``, short commands (`viewhost client`, `curl`,
/// `openssl`) in ``commands``, apart so that a test holding a server can always run a command against it.
///
/// `@unchecked Sendable`: one test uses one process, one call at a time.
public final class ServerProcess: @unchecked Sendable {
    /// Why starting or stopping the process failed.
    public enum ProcessError: Error, CustomStringConvertible {
        case binaryNotFound([String])
        /// The program, and the error number.
        case spawnFailed(String, Int32)
        case noReadinessLine(output: String)
        case didNotExit

        /// One line for a test's failure message, with the places looked in or the output seen.
        public var description: String {
            switch self {
            case .binaryNotFound(let places): "viewhost binary not found in \(places)"
            case .spawnFailed(let program, let code):
                "could not start \(program): \(String(cString: strerror(code))) (\(code))"
            case .noReadinessLine(let output): "no readiness line; output: \(output)"
            case .didNotExit: "the process did not exit in time"
            }
        }
    }

    /// The child's process id.
    public let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    /// What the threads that wait on the child (`OffThread`) and the test's task share: the test reads what a
    /// waiting thread collected or set, under this lock (a continuation's resumption alone did not order them for
    /// ThreadSanitizer, which once reported the output read after `waitForExit` as a race with the last `pump`).
    private struct Shared {
        var exitStatus: Int32?
        /// The slot this child holds until it is reaped.
        var slot: ProcessSlots?
        /// The task that started this server, counted in ``liveByTask`` until it is reaped.
        var task: Int?
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var port = 0
        var readinessLine = ""
    }

    private let shared: Locked<Shared>
    private var collectedOutput: [UInt8] { shared.withLock { $0.output } }
    private var collectedErrors: [UInt8] { shared.withLock { $0.errors } }
    /// The port from the readiness line.
    public var port: Int { shared.withLock { $0.port } }
    /// The readiness line.
    public var readinessLine: String { shared.withLock { $0.readinessLine } }

    /// The slots of long-running servers (the convenience initialiser's children). A test takes one for its first
    /// server only: its later servers, started while that one lives (a take-over's new process, a cluster's other
    /// nodes), run on it. When each server took a slot, tests that each held one server and waited for their second
    /// held every slot and waited on each other until their time limits (the suite's take-over tests with others).
    public static let servers = ProcessSlots(count: ProcessSlots.perMachine)

    /// Live servers by the task (a test's body) that started them.
    private static let liveByTask = Locked<[Int: Int]>([:])

    /// One of the servers `task` started has ended (reaped, or killed unreaped when its object went).
    private static func serverEnded(startedBy task: Int) {
        liveByTask.withLock { live in
            live[task, default: 1] -= 1
            if live[task] == 0 { live[task] = nil }
        }
    }
    /// The slots of commands run to completion (``run(executable:_:environment:timeout:)``).
    public static let commands = ProcessSlots(count: ProcessSlots.perMachine)

    /// The built `viewhost` binary: `$VIEWHOST_BINARY`, else next to the running test bundle.
    public static func binaryPath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["VIEWHOST_BINARY"] { return path }
        var candidates: [String] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("viewhost").path)
            directory.deleteLastPathComponent()
        }
        candidates.append(
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
                ".build/debug/viewhost"
            ).path)
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ProcessError.binaryNotFound(candidates)
        }
        return found
    }

    /// Runs `viewhost` with `arguments` to completion and returns its exit status and output.
    /// `passing` descriptors become the child's 3, 4, … (as systemd passes sockets).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20),
        launcher: [String] = [], passing descriptors: [Int32] = []
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        guard let program = launcher.first else {
            return try await run(
                executable: try binaryPath(), arguments, environment: environment, timeout: timeout,
                passing: descriptors)
        }
        return try await run(
            executable: program, launcher.dropFirst() + [try binaryPath()] + arguments, environment: environment,
            timeout: timeout, passing: descriptors)
    }

    /// Runs `viewhost` with `arguments` as ``run(_:environment:timeout:launcher:)`` does, its `TMPDIR` a directory
    /// of its own (`temporary`, made and removed here), and returns also what it left there.
    public static func run(
        _ arguments: [String], temporary: String
    ) async throws -> (status: Int32, stdout: String, stderr: String, leftInTemporary: [String]) {
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let result = try await run(arguments, environment: ["TMPDIR": temporary])
        return (
            result.status, result.stdout, result.stderr, try FileManager.default.contentsOfDirectory(atPath: temporary)
        )
    }

    /// Runs another program (`openssl`, `curl`, `gzip`; found on PATH when `executable` has no slash) with
    /// stdin from /dev/null, and waits for it to exit.
    public static func run(
        executable: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: Duration = .seconds(20), passing descriptors: [Int32] = []
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await commands.acquire()
        let child = try ServerProcess(
            executable: executable, spawning: arguments, environment: environment, slot: commands,
            passing: descriptors)
        let status = try await child.waitForExit(timeout: timeout)
        return (status, String(decoding: child.collectedOutput, as: UTF8.self), child.standardErrorText())
    }

    /// Starts `viewhost` and waits for its readiness line.
    /// - Parameters:
    ///   - arguments: Command-line arguments (add `--port 0`).
    ///   - environment: Extra environment variables.
    ///   - timeout: How long to wait for the readiness line.
    ///   - launcher: A program that execs `viewhost` in its own place, with its arguments (`["prlimit",
    ///     "--fsize=65536", "--"]`, `["setpriv", "--reuid=65534", …]`), so ``pid`` is the server's.
    ///   - binary: The app to start instead of the built `viewhost` (another app on the library, or `viewhost`
    ///     under another name).
    ///   - name: The app's name, which starts its readiness line (`NAME listening on http://…`).
    ///   - descriptors: Descriptors of the test's that become the child's 3, 4, … (as systemd passes sockets).
    /// - Throws: ``ProcessError`` when the binary is missing, cannot be started, or prints no readiness line in time.
    public convenience init(
        arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20),
        launcher: [String] = [], binary: String? = nil, name: String = "viewhost", passing descriptors: [Int32] = []
    ) async throws {
        let binary = try binary ?? Self.binaryPath()
        let task = withUnsafeCurrentTask { $0?.hashValue }
        let holding = task.map { task in Self.liveByTask.withLock { ($0[task] ?? 0) > 0 } } ?? false
        if !holding { try await Self.servers.acquire() }
        let slot = holding ? nil : Self.servers
        if let program = launcher.first {
            try self.init(
                executable: program, spawning: launcher.dropFirst() + [binary] + arguments, environment: environment,
                slot: slot, passing: descriptors)
        } else {
            try self.init(
                executable: binary, spawning: arguments, environment: environment, slot: slot, passing: descriptors)
        }
        if let task {
            Self.liveByTask.withLock { $0[task, default: 0] += 1 }
            shared.withLock { $0.task = task }
        }
        try await OffThread.run { try self.waitForReadiness(timeout: timeout, name: name) }
    }

    /// Reads output until the readiness line (`name listening on …`); kills the process and throws when it exits
    /// first or `timeout` passes.
    private func waitForReadiness(timeout: Duration, name: String) throws {
        let deadline = TestDeadline.after(timeout)
        while ContinuousClock.now < deadline {
            let text = String(decoding: collectedOutput, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("\(name) listening on ") }),
                text.contains("\n")
            {
                shared.withLock {
                    $0.readinessLine = String(line)
                    $0.port = Int(line.split(separator: ":").last ?? "") ?? 0
                }
                return
            }
            if reap() != nil {
                while pump(timeoutMilliseconds: 0) {}
                break
            }
            _ = pump(timeoutMilliseconds: 50)
        }
        kill(pid, SIGKILL)
        _ = try? waitForExitBlocking(timeout: .seconds(5))
        throw ProcessError.noReadinessLine(output: String(decoding: collectedOutput + collectedErrors, as: UTF8.self))
    }

    /// Starts the child; `slot` (already taken) is given back when it is reaped, or at once if it cannot start.
    private init(
        executable path: String, spawning arguments: [String], environment: [String: String], slot: ProcessSlots?,
        passing descriptors: [Int32] = []
    ) throws {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        // Close-on-exec, so servers spawned at the same time by other tests do not inherit these pipes (and hold
        // their write ends open); dup2 in the child clears the flag on its own stdout and stderr.
        guard vh_pipe_cloexec(&outPipe) == 0, vh_pipe_cloexec(&errPipe) == 0 else {
            let code = errno
            slot?.release()
            throw ProcessError.spawnFailed(path, code)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, outPipe[0])
        posix_spawn_file_actions_addclose(&actions, errPipe[0])
        // Each passed descriptor is copied above the low numbers first, so that one already numbered 3 or 4 is not
        // overwritten by the dup2 of another before its own; the copies are close-on-exec, the targets not.
        let copies = descriptors.map { fcntl($0, F_DUPFD_CLOEXEC, 100) }
        defer { for copy in copies where copy >= 0 { Glibc.close(copy) } }
        for (index, copy) in copies.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, copy, Int32(3 + index))
        }
        // Servers keep sessions in memory unless a test asks for a store (`--store sqlite --data-dir …` beats
        // this), so no test writes a `data/` directory where it runs.
        let merged = ProcessInfo.processInfo.environment.merging(["VIEWHOST_STORE_KIND": "memory"]) { $1 }
            .merging(environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child = pid_t()
        let result = posix_spawnp(&child, path, &actions, nil, argv, envp)
        Glibc.close(outPipe[1])
        Glibc.close(errPipe[1])
        guard result == 0 else {
            Glibc.close(outPipe[0])
            Glibc.close(errPipe[0])
            slot?.release()
            throw ProcessError.spawnFailed(path, result)
        }
        shared = Locked(Shared(slot: slot))
        pid = child
        stdoutFD = outPipe[0]
        stderrFD = errPipe[0]
    }

    deinit {
        let (exitStatus, slot, task) = shared.withLock { ($0.exitStatus, $0.slot, $0.task) }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        slot?.release()
        if let task { Self.serverEnded(startedBy: task) }  // never reaped: the count is given back here
        Glibc.close(stdoutFD)
        Glibc.close(stderrFD)
    }

    /// Sends `signal` to the process.
    public func send(signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the process to exit; returns its exit status (128 + signal when a signal ended it).
    public func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32 {
        try await OffThread.run { try self.waitForExitBlocking(timeout: timeout) }
    }

    private func waitForExitBlocking(timeout: Duration) throws -> Int32 {
        let deadline = TestDeadline.after(timeout)
        while ContinuousClock.now < deadline {
            if let status = reap() {
                while pump(timeoutMilliseconds: 0) {}
                return status
            }
            _ = pump(timeoutMilliseconds: 20)
        }
        throw ProcessError.didNotExit
    }

    /// Whether the process has exited, without waiting (its status then comes from ``waitForExit(timeout:)``).
    public var hasExited: Bool { reap() != nil }

    /// Everything the process wrote to standard error so far.
    public func standardErrorText() -> String {
        while pump(timeoutMilliseconds: 0) {}
        return String(decoding: collectedErrors, as: UTF8.self)
    }

    /// Reads what the pipes hold; returns whether anything was read.
    private func pump(timeoutMilliseconds: Int32) -> Bool {
        var fds = [
            pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&fds, 2, timeoutMilliseconds) > 0 else { return false }
        var readAny = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        for (index, entry) in fds.enumerated() where entry.revents & Int16(POLLIN) != 0 {
            let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            readAny = true
            let bytes = buffer[0..<count]
            shared.withLock { if index == 0 { $0.output += bytes } else { $0.errors += bytes } }
        }
        return readAny
    }

    /// The exit status once the child ended, without blocking.
    private func reap() -> Int32? {
        if let exitStatus = shared.withLock({ $0.exitStatus }) { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let terminatedBySignal = status & 0x7F
        let exitStatus = terminatedBySignal == 0 ? (status >> 8) & 0xFF : 128 + terminatedBySignal
        let (slot, task) = shared.withLock { shared -> (ProcessSlots?, Int?) in
            shared.exitStatus = exitStatus
            defer {
                shared.slot = nil
                shared.task = nil
            }
            return (shared.slot, shared.task)
        }
        slot?.release()
        if let task { Self.serverEnded(startedBy: task) }
        return exitStatus
    }
}
