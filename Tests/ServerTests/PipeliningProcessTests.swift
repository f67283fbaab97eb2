import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Clients that pipeline requests and never read the answers cost the server bounded memory: a connection stops
/// reading once more than `maxQueuedResponseBytes` of its answers wait, so four such clients leave the real
/// server's resident memory within a coarse bound, others are served meanwhile, and closing them frees their
/// connections. Before, answers piled up without a bound: one such client took the server from 51 to 232 MB in
/// 20 s, four to 516 MB.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct PipeliningProcessTests {
    /// Requests each client sends at most (about 370,000 `GET /healthz`, some 70 MB of answers).
    static let requestBytesPerClient = 12 << 20
    /// How much the server's resident memory may grow: far above what four paused connections hold (a few
    /// hundred KiB each), far below what their answers would take if they piled up.
    static let memoryBound = 32 << 20

    @Test func clientsThatNeverReadPipelinedAnswersCostBoundedMemory() async throws {
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0"], environment: ["VIEWHOST_LOG_ACCESS": "false"])
        #expect(try await ProcessHTTP.request(server.port, "GET", "/healthz").status == 200)
        let before = try #require(Self.residentBytes(of: server.pid))
        var clients = try (0..<4).map { _ in try HTTPTestClient(port: server.port) }
        for client in clients { client.setReceiveBufferSize(4096) }  // the answers stay on the server's side
        let batch = Array(String(repeating: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", count: 1000).utf8)
        let sent = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in clients {
                let fd = client.fd
                group.addTask {
                    try await OffThread.run { Self.pipeline(on: fd, batch: batch, upTo: Self.requestBytesPerClient) }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sent.allSatisfy { $0 < Self.requestBytesPerClient }, "the server read every request: \(sent)")
        // Under a sanitizer (scripts/sanitize.sh) resident memory is no measure: ASan keeps freed blocks in
        // quarantine and TSan shadows what is touched. That the clients' requests stopped being read holds there too.
        if ProcessInfo.processInfo.environment["VIEWHOST_SANITIZER"] == nil {
            let after = try #require(Self.residentBytes(of: server.pid))
            #expect(after - before < Self.memoryBound, "resident memory grew from \(before) to \(after) bytes")
        }
        #expect(try await ProcessHTTP.request(server.port, "GET", "/healthz").status == 200)

        clients.removeAll()  // closed with their answers unread: a reset, which the paused connections see
        let closed = try await eventually(timeout: .seconds(20), interval: .milliseconds(50)) {
            let metrics = try await ProcessHTTP.request(server.port, "GET", "/metrics")
            return Self.gauge("viewhost_http_connections_open", in: metrics.text) == 1  // the request asking
        }
        #expect(closed, "the paused connections of the closed clients are still open")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// Sends `batch` over and over without reading, until `limit` bytes went out or the server has taken nothing
    /// for a second (the bytes the socket holds unsent do not go down: the server stopped reading); returns the bytes
    /// sent. A busy machine can only end it early. (Waiting for the socket to be writable again is no sign:
    /// the kernel reports that only once a third of its send buffer is free.)
    private static func pipeline(on fd: Int32, batch: [UInt8], upTo limit: Int) -> Int {
        var sent = 0
        var unsent: Int32 = -1
        var takenLast = ContinuousClock.now
        while sent < limit {
            let offset = sent % batch.count
            let count = batch.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, batch.count - offset, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
                continue
            }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return sent }  // closed
            var queued: Int32 = 0
            guard ioctl(fd, UInt(TIOCOUTQ), &queued) == 0 else { return sent }
            if queued != unsent {
                unsent = queued
                takenLast = .now
            } else if takenLast.duration(to: .now) > .seconds(1) {
                return sent
            }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 20)
        }
        return sent
    }

    /// The value of a gauge without labels in Prometheus' text format.
    private static func gauge(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    /// The process's resident set size (`VmRSS` in `/proc/PID/status`), in bytes.
    private static func residentBytes(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let field = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first,
            let kilobytes = Int(field)
        else { return nil }
        return kilobytes * 1024
    }
}
