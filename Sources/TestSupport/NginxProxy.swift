import CSystemShim
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// nginx in front of a test's server, run from the repository's `Config/nginx.conf` with this run's ports (as
/// `scripts/cluster.sh` does): the listen port a free one, every upstream the one server given. Its files live in a
/// temporary directory; ``stop()`` (or deinit) stops it by the pid in its `nginx.pid` and removes the directory.
///
/// `@unchecked Sendable`: one test uses one proxy, one call at a time.
public final class NginxProxy: @unchecked Sendable {
    /// Why nginx could not be started.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with nginx's output when it printed some.
        public let description: String
    }

    /// The port nginx listens on (127.0.0.1).
    public let port: Int
    /// The temporary directory (configuration, pid file, logs, temporary files).
    public let directory: String
    private var stopped = false

    /// Starts nginx with the configuration at `configurationPath`, proxying to `upstreamPort` on 127.0.0.1.
    public init(configurationPath: String, upstreamPort: Int) async throws {
        var template = Array("/tmp/viewhost-nginx-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw StartError(description: "mkdtemp failed") }
        directory = String(cString: made)
        port = try Self.freePort()
        do {
            try FileManager.default.createDirectory(atPath: "\(directory)/logs", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(directory)/temp", withIntermediateDirectories: true)
            let shipped = try String(contentsOfFile: configurationPath, encoding: .utf8)
            try Self.configuration(shipped, port: port, upstreamPort: upstreamPort)
                .write(toFile: "\(directory)/nginx.conf", atomically: true, encoding: .utf8)
            let result = try await ServerProcess.run(
                executable: "nginx",
                ["-p", directory, "-c", "\(directory)/nginx.conf", "-e", "\(directory)/logs/error.log"])
            guard result.status == 0 else {
                throw StartError(description: "nginx exited \(result.status): \(result.stderr)")
            }
        } catch {
            await stop()
            throw error
        }
    }

    /// `shipped` with `port` as its listen port and `upstreamPort` as its only upstream server.
    static func configuration(_ shipped: String, port: Int, upstreamPort: Int) throws -> String {
        var replacedUpstream = false
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("listen 127.0.0.1:") { return "        listen 127.0.0.1:\(port);" }
            guard trimmed.hasPrefix("server 127.0.0.1:") else { return String(line) }
            defer { replacedUpstream = true }
            return replacedUpstream ? nil : "        server 127.0.0.1:\(upstreamPort);"
        }
        guard replacedUpstream else { throw StartError(description: "the configuration names no upstream server") }
        return lines.joined(separator: "\n")
    }

    /// A free TCP port on 127.0.0.1 (bound, read back and released: nginx binds it a moment later).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket failed (errno \(errno))") }
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw StartError(description: "no free port (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        guard !stopped else { return }
        let directory = directory
        Thread.detachNewThread { Self.stop(directory: directory) }
    }

    /// Stops nginx (graceful, by pid) and removes its directory.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        let directory = directory
        _ = try? await OffThread.run { Self.stop(directory: directory) }
    }

    /// The error log, for a failing test's message.
    public func errorLog() -> String {
        (try? String(contentsOfFile: "\(directory)/logs/error.log", encoding: .utf8)) ?? ""
    }

    private static func stop(directory: String) {
        if let text = try? String(contentsOfFile: "\(directory)/nginx.pid", encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(pid, SIGQUIT)
            let deadline = TestDeadline.after(.seconds(20))
            while kill(pid, 0) == 0, ContinuousClock.now < deadline { usleep(20_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
