import CSystemShim
import Foundation
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server that answers what a test scripts, to show the client what no ViewHost server sends: an
/// HTML page, broken JSON, a head and then nothing, an endless body. Each request's target is recorded. One thread
/// per connection; ``stop()`` closes the listener and every connection.
final class ScriptedHTTPServer: Sendable {
    /// One scripted answer.
    enum Reply: Sendable {
        /// These bytes, then the connection closes.
        case raw(String)
        /// This head, then nothing, the connection held open until ``stop()``.
        case stallAfterHead(String)
        /// This head, then `bytes` bytes of body (`x`), as fast as the client reads them.
        case body(head: String, bytes: Int)
    }

    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let targets = Locked<[String]>([])
    private let open = Locked<[Int32]>([])
    private let stopped = Locked(false)
    private let answer: @Sendable (String) -> Reply

    /// Listens on a free loopback port; `answer` gets each request's target.
    init(_ answer: @escaping @Sendable (String) -> Reply) throws {
        self.answer = answer
        (listener, port) = try LoopbackListener.open()
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The request targets received so far (`/v1/sessions`, …), in order.
    var requests: [String] { targets.withLock { $0 } }

    /// The base URL of the server, with `path` after it.
    func url(_ path: String = "") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops listening and closes every connection.
    func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        open.withLock { $0.forEach { shutdown($0, Int32(SHUT_RDWR)) } }
    }

    deinit {
        stop()
        Glibc.close(listener)
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            open.withLock { $0.append(client) }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            open.withLock { $0.removeAll { $0 == fd } }
            Glibc.close(fd)
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.containsHeadEnd {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            received += chunk[0..<count]
        }
        let requestLine = String(decoding: received.prefix { $0 != 0x0D }, as: UTF8.self)
        let target = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        targets.withLock { $0.append(target) }
        switch answer(target) {
        case .raw(let text):
            write(fd, Array(text.utf8))
        case .stallAfterHead(let head):
            write(fd, Array(head.utf8))
            while !stopped.withLock({ $0 }), recv(fd, &chunk, chunk.count, 0) > 0 {}
        case .body(let head, let bytes):
            guard write(fd, Array(head.utf8)) else { return }
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
            var left = bytes
            while left > 0, write(fd, Array(block.prefix(left))) { left -= min(left, block.count) }
        }
    }

    /// Writes all of `bytes`; false when the peer went away.
    @discardableResult
    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { vh_send(fd, $0.baseAddress! + sent, bytes.count - sent) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}

extension Array where Element == UInt8 {
    /// Whether a request head's blank line has arrived.
    fileprivate var containsHeadEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
