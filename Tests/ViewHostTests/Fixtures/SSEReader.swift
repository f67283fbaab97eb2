import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reads a `text/event-stream` answer as it arrives: the head, then the chunked body decoded chunk by chunk,
/// then server-sent-event frames (blocks ended by a blank line). `TestResponse` only parses complete answers,
/// and a stream is never complete while it lives.
///
/// Blocking reads run on a thread of their own (as `HTTPTestClient`'s do), never on the test's task.
/// `@unchecked Sendable`: one test uses one reader, one call at a time.
final class SSEReader: @unchecked Sendable {
    /// One block of the stream.
    struct Frame: Sendable, CustomStringConvertible {
        var id: String?
        var event: String?
        var data: String?
        var retry: String?
        var comment: String?

        /// `data` parsed as JSON.
        var json: JSON { (try? JSON(bytes: Array((data ?? "").utf8))) ?? JSON(nil) }

        var description: String {
            [id.map { "id:\($0)" }, event.map { "event:\($0)" }, retry.map { "retry:\($0)" },
             comment.map { ":\($0)" }, data.map { "data:\($0.prefix(60))…" }]
                .compactMap { $0 }.joined(separator: " ")
        }
    }

    enum ReaderError: Error {
        case timedOut
        case endOfStream
        case notChunked(TestResponse)
    }

    let client: HTTPTestClient
    /// Bytes received and not yet decoded (the head, then chunk framing).
    private var raw: [UInt8] = []
    /// Decoded body bytes not yet parsed into frames.
    private var body: [UInt8] = []
    /// How far `body` is known to hold no blank line (so big frames are not rescanned on every read).
    private var scanned = 0
    private var headParsed = false
    /// The terminating zero-size chunk arrived.
    private(set) var sawLastChunk = false
    /// The server closed the connection.
    private(set) var sawEOF = false

    /// Connects and sends `GET path` (keep-alive, so only the server decides when the connection ends).
    init(
        port: Int, path: String, token: String?, headers: [(String, String)] = [], receiveBuffer: Int32? = nil
    ) throws {
        client = try HTTPTestClient(port: port)
        if let receiveBuffer { client.setReceiveBufferSize(receiveBuffer) }
        try client.send(TestApp.requestBytes("GET", path, token: token, headers: headers, close: false))
    }

    /// The response head. A non-streamed answer (an error) is read whole and returned with its body.
    func head(timeout: Duration = .seconds(60)) async throws -> TestResponse {
        try await offThread { try self.headBlocking(timeout: timeout) }
    }

    /// The next frame; throws `timedOut` when none completes within `timeout`, `endOfStream` when the body ended.
    func next(timeout: Duration = .seconds(60)) async throws -> Frame {
        try await offThread { try self.nextBlocking(timeout: timeout) }
    }

    /// Whether no frame arrives within `timeout` (a short deadline read that is expected to time out).
    func staysQuiet(for timeout: Duration) async throws -> Bool {
        do {
            let frame = try await next(timeout: timeout)
            Issue.record("expected no frame, got \(frame)")
            return false
        } catch ReaderError.timedOut {
            return true
        }
    }

    /// Frames until one satisfies `predicate` (included), within `timeout` overall.
    func frames(until predicate: (Frame) -> Bool, timeout: Duration = .seconds(60)) async throws -> [Frame] {
        let deadline = TestDeadline.after(timeout)
        var frames: [Frame] = []
        while true {
            let frame = try await next(timeout: ContinuousClock.now.duration(to: deadline))
            frames.append(frame)
            if predicate(frame) { return frames }
        }
    }

    /// Every frame until the body ends, then (when `waitForClose`) whether the server closed the connection too.
    func readToEnd(timeout: Duration = .seconds(60), waitForClose: Bool = true) async throws -> (frames: [Frame], closed: Bool) {
        let deadline = TestDeadline.after(timeout)
        var frames: [Frame] = []
        do {
            while true { frames.append(try await next(timeout: ContinuousClock.now.duration(to: deadline))) }
        } catch ReaderError.endOfStream {}
        guard waitForClose else { return (frames, sawEOF) }
        let closed = try await offThread { () -> Bool in
            while !self.sawEOF {
                do { try self.fill(until: deadline) } catch { return false }
            }
            return true
        }
        return (frames, closed)
    }

    // MARK: - Blocking parts

    private func headBlocking(timeout: Duration) throws -> TestResponse {
        let deadline = TestDeadline.after(timeout)
        while true {
            if let end = Self.find([13, 10, 13, 10], in: raw) {
                guard let (head, _) = try TestResponse.parse(Array(raw[..<(end + 4)]), complete: false, headRequest: true)
                else { throw ReaderError.timedOut }
                if head.header("Transfer-Encoding")?.lowercased() == "chunked" {
                    raw.removeFirst(end + 4)
                    headParsed = true
                    return head
                }
                if let (whole, _) = try TestResponse.parse(raw, complete: sawEOF) { return whole }
            }
            if sawEOF { throw ReaderError.endOfStream }
            try fill(until: deadline)
        }
    }

    private func nextBlocking(timeout: Duration) throws -> Frame {
        let deadline = TestDeadline.after(timeout)
        if !headParsed {
            let head = try headBlocking(timeout: timeout)
            guard headParsed else { throw ReaderError.notChunked(head) }
        }
        while true {
            decodeChunks()
            if let frame = takeFrame() { return frame }
            if sawLastChunk || sawEOF { throw ReaderError.endOfStream }
            try fill(until: deadline)
        }
    }

    /// Moves every complete chunk from `raw` into `body`.
    private func decodeChunks() {
        while !sawLastChunk, let lineEnd = Self.find([13, 10], in: raw) {
            let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return }
            if size == 0 {
                sawLastChunk = true
                return
            }
            guard raw.count >= lineEnd + 2 + size + 2 else { return }
            body.append(contentsOf: raw[(lineEnd + 2)..<(lineEnd + 2 + size)])
            raw.removeFirst(lineEnd + 2 + size + 2)
        }
    }

    /// One frame from the front of `body`, if a blank line ends one.
    private func takeFrame() -> Frame? {
        guard let end = Self.find([10, 10], in: body, from: max(0, scanned - 1)) else {
            scanned = body.count
            return nil
        }
        let block = String(decoding: body[..<end], as: UTF8.self)
        body.removeFirst(end + 2)
        scanned = 0
        var frame = Frame()
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                frame.comment = line.dropFirst().trimmingCharacters(in: .whitespaces)
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1].hasPrefix(" ") ? parts[1].dropFirst() : parts[1]) : ""
            switch parts[0] {
            case "id": frame.id = value
            case "event": frame.event = value
            case "data": frame.data = (frame.data.map { $0 + "\n" } ?? "") + value
            case "retry": frame.retry = value
            default: break
            }
        }
        return frame
    }

    private func fill(until deadline: ContinuousClock.Instant) throws {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw ReaderError.timedOut }
        let milliseconds = Int32(
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
        var poller = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        guard ready > 0 else {
            if ready < 0, errno == EINTR { return }
            throw ReaderError.timedOut
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            raw.append(contentsOf: chunk[0..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            sawEOF = true
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            for index in start...(buffer.count - pattern.count) where buffer[index] == pattern[0] {
                var matches = true
                for offset in 1..<pattern.count where buffer[index + offset] != pattern[offset] { matches = false }
                if matches { return index }
            }
            return nil
        }
    }

    private func offThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await OffThread.run(stackSize: 512 * 1024, work)
    }
}
