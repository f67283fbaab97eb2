// BenchSupport: what the native load clients (sse-bench, delivery-bench) share: loopback sockets, HTTP/1.1
// answers with Content-Length, server-sent event streams with the kernel's receive timestamps, clocks and
// percentiles. Measurement harness, not product code; everything targets 127.0.0.1.
import CSystemShim
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Says what went wrong on stderr, prefixed by the tool's name, and exits with 2.
public func fail(_ message: String) -> Never {
    let tool = (CommandLine.arguments.first ?? "bench").split(separator: "/").last.map(String.init) ?? "bench"
    FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
    exit(2)
}

// MARK: - Clocks

/// CLOCK_REALTIME in nanoseconds: the clock SO_TIMESTAMPNS stamps received bytes with.
public func realtimeNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// This process's user+system CPU seconds.
public func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}

/// Another process's utime+stime in seconds (from /proc/PID/stat), or nil without a PID or when it is gone.
public func processCPUSeconds(_ pid: Int32?) -> Double? {
    guard let pid, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based), so 11 and 12 here (0-based).
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

// MARK: - Sockets

/// A TCP connection to 127.0.0.1:`port` (no Nagle); non-blocking if asked, with SO_TIMESTAMPNS if asked.
public func connectLoopback(port: Int, nonBlocking: Bool, timestamps: Bool = false) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { fail("socket: \(String(cString: strerror(errno)))") }
    _ = vh_set_nodelay(fd)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else { fail("connect: \(String(cString: strerror(errno)))") }
    if timestamps {
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size))
    }
    if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return fd
}

/// Writes all of `bytes`, waiting in poll when a non-blocking socket is full.
public func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
        let count = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return vh_send(fd, base + sent, raw.count - sent)
        }
        if count > 0 {
            sent += count
        } else if count < 0, errno == EAGAIN || errno == EINTR {
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 1000)
        } else {
            fail("send: \(String(cString: strerror(errno)))")
        }
    }
}

/// The first index of `pattern` in `bytes`.
public func find(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
    var index = bytes.startIndex
    while index + pattern.count <= bytes.endIndex {
        if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        index += 1
    }
    return nil
}

/// Takes one complete response with Content-Length off the front of `buffer`, or nil if it is not all there yet.
public func takeResponse(_ buffer: inout [UInt8]) -> (status: Int, body: [UInt8])? {
    guard let end = find(Array("\r\n\r\n".utf8), in: buffer[...]) else { return nil }
    let head = String(decoding: buffer[..<end], as: UTF8.self)
    let status = Int(head.dropFirst(9).prefix(3)) ?? 0
    var length = 0
    for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
        length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
    guard buffer.count >= end + 4 + length else { return nil }
    let body = Array(buffer[(end + 4)..<(end + 4 + length)])
    buffer.removeFirst(end + 4 + length)
    return (status, body)
}

/// Reads one response with Content-Length from a blocking socket; returns the status and body.
public func readResponse(_ fd: Int32, buffer: inout [UInt8]) -> (status: Int, body: [UInt8]) {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        if let response = takeResponse(&buffer) { return response }
        let count = chunk.withUnsafeMutableBytes { vh_recv(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
        } else if count < 0, errno == EINTR || errno == EAGAIN {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 1000)
        } else {
            fail("the server closed a connection while answering")
        }
    }
}

/// One request on a blocking connection: writes it, reads the answer.
public func exchange(
    _ fd: Int32, _ method: String, _ path: String, token: String? = nil, body: String? = nil,
    buffer: inout [UInt8]
) -> (status: Int, body: [UInt8]) {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
    sendAll(fd, Array((head + "\r\n" + (body ?? "")).utf8))
    return readResponse(fd, buffer: &buffer)
}

/// Reads what a non-blocking socket has into `buffer` with one recvmsg: the byte count (0 at the end, negative
/// when there is nothing now), the kernel's receive time of its first byte (SO_TIMESTAMPNS; the read time
/// without it) and the read time, both CLOCK_REALTIME ns.
public func receiveStamped(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, control: UnsafeMutableRawBufferPointer
) -> (count: Int, arrived: Int64, read: Int64) {
    var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
    var message = msghdr()
    let received = withUnsafeMutablePointer(to: &vector) { vectorPointer -> Int in
        message.msg_iov = vectorPointer
        message.msg_iovlen = 1
        message.msg_control = control.baseAddress
        message.msg_controllen = control.count
        return recvmsg(fd, &message, Int32(MSG_DONTWAIT))
    }
    let read = realtimeNanoseconds()
    var arrived = read
    if received > 0, message.msg_controllen >= MemoryLayout<cmsghdr>.size {
        let header = control.load(as: cmsghdr.self)
        if header.cmsg_level == SOL_SOCKET, header.cmsg_type == SO_TIMESTAMPNS {
            let stamp = control.loadUnaligned(fromByteOffset: MemoryLayout<cmsghdr>.size, as: timespec.self)
            arrived = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
        }
    }
    return (received, arrived, read)
}

// MARK: - Event streams

/// One server-sent event stream's bytes: the response head, then the chunked body, cut into events (blocks
/// ending with a blank line); each event that carries data is handed to `onEvent` with the times of the read
/// that completed it.
public final class EventStreamParser {
    public private(set) var status = 0
    public private(set) var headDone = false
    public private(set) var ended = false
    var buffer: [UInt8] = []
    var text: [UInt8] = []
    var chunkRemaining: Int?
    let onEvent: (ArraySlice<UInt8>, Int64, Int64) -> Void

    /// `onEvent(block, arrived, read)` gets each event with data.
    public init(onEvent: @escaping (ArraySlice<UInt8>, Int64, Int64) -> Void) { self.onEvent = onEvent }

    /// Takes the bytes of one read.
    public func received(_ bytes: UnsafeRawBufferPointer, arrived: Int64, read: Int64) {
        buffer.append(contentsOf: bytes)
        if !headDone {
            guard let end = find(Array("\r\n\r\n".utf8), in: buffer[...]), buffer.count >= 12 else { return }
            status = Int(String(decoding: buffer[9..<12], as: UTF8.self)) ?? 0
            buffer.removeFirst(end + 4)
            headDone = true
        }
        // Chunked framing: size line, data, CRLF.
        while true {
            if let remaining = chunkRemaining {
                guard buffer.count >= remaining + 2 else { break }
                text.append(contentsOf: buffer[0..<remaining])
                buffer.removeFirst(remaining + 2)
                chunkRemaining = nil
            } else {
                guard let end = find(Array("\r\n".utf8), in: buffer[...]) else { break }
                let size = Int(String(decoding: buffer[..<end], as: UTF8.self), radix: 16) ?? 0
                buffer.removeFirst(end + 2)
                if size == 0 {
                    ended = true
                    break
                }
                chunkRemaining = size
            }
        }
        while let end = find(Array("\n\n".utf8), in: text[...]) {
            let block = text[..<end]
            if find(Array("data:".utf8), in: block) != nil { onEvent(block, arrived, read) }
            text.removeFirst(end + 2)
        }
    }
}

// MARK: - Figures

/// The value at `fraction` (nearest rank) of sorted values.
public func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[max(0, min(sorted.count - 1, rank))]
}

/// n, p50, p90, p99 and max of `values`, rounded to 0.001.
public func summary(_ values: [Double]) -> [String: Any] {
    let sorted = values.sorted()
    func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    return [
        "n": sorted.count, "p50": rounded(percentile(sorted, 0.5)), "p90": rounded(percentile(sorted, 0.9)),
        "p99": rounded(percentile(sorted, 0.99)), "max": rounded(sorted.last ?? 0),
    ]
}

// MARK: - Command line

/// The command line, read option by option, each value checked as the benchmarks take it (a failure names the
/// option and exits with 2).
public struct BenchArguments {
    private var rest = CommandLine.arguments.dropFirst()[...]
    /// The option read last.
    public private(set) var option = ""

    /// The process's arguments after its name.
    public init() {}

    /// The next option, or nil when none is left.
    public mutating func next() -> String? {
        guard let argument = rest.popFirst() else { return nil }
        option = argument
        return argument
    }

    /// The option's value.
    public mutating func value() -> String {
        guard let text = rest.popFirst() else { fail("\(option) needs a value") }
        return text
    }

    /// The option's value, a positive number.
    public mutating func decimal() -> Double {
        guard let number = Double(value()), number > 0 else { fail("\(option) needs a positive number") }
        return number
    }

    /// The option's value, a positive integer.
    public mutating func number() -> Int {
        guard let number = Int(value()), number > 0 else { fail("\(option) needs a positive integer") }
        return number
    }

    /// The option itself as the server's port (1 to 65535).
    public func port() -> Int {
        guard let number = Int(option), (1..<65536).contains(number) else { fail("bad argument '\(option)'") }
        return number
    }
}

// MARK: - Waiting

/// Runs `pump` (an epoll loop's one wait, given its timeout in ms) until `done` holds or `seconds` pass: whether it
/// held.
public func waitUntil(
    seconds: Double, pumping pump: (_ timeoutMilliseconds: Int32) -> Void, pollMilliseconds: Int32 = 20,
    _ done: () -> Bool
) -> Bool {
    let deadline = realtimeNanoseconds() + Int64(seconds * 1e9)
    while !done() {
        if realtimeNanoseconds() > deadline { return false }
        pump(pollMilliseconds)
    }
    return true
}
