// sse-bench: a native load client for server-sent events, for Benchmarks/sse.sh. Measurement harness, not
// product code. Everything targets 127.0.0.1 and is bounded in count and time.
//
// It does what `product_client.py live` does, at C speed, so that on this 2-core machine the client's own CPU
// time does not dominate a burst: it creates SESSIONS sessions with the login feature, opens PER streams on each
// (GET /v1/sessions/{id}/stream?features=login, one connection per stream, all read by one epoll loop), waits for
// every stream's first snapshot, then runs each round of --modes:
//   burst  one setUsername POST per session, all written at once (over --post-conns keep-alive connections)
//   paced  the same POSTs spread evenly over --pace-seconds
// Latency per stream = arrival of that stream's next event − the moment its session's POST was written. Arrival
// is the kernel's receive timestamp of the bytes (SO_TIMESTAMPNS, CLOCK_REALTIME), so the client's own queue
// is not counted; the time the client read them is reported too ("read" latency).
//
// Usage: sse-bench PORT [--sessions N] [--per N] [--modes burst,paced] [--pace-seconds S] [--post-conns N]
//                       [--timeout S] [--server-pid PID] [--json-out FILE]
// With --server-pid, each round also reports the server's CPU seconds (utime+stime from /proc/PID/stat) from
// just before its first POST until its last event arrived.
// Prints one JSON object (also to --json-out).
import CSystemShim
import Foundation
import ViewHostJSON

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Options

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sse-bench: \(message)\n".utf8))
    exit(2)
}

var port = 0
var sessionCount = 2000
var perSession = 5
var modes = ["burst", "paced"]
var paceSeconds = 2.0
var postConnections = 64
var roundTimeout = 30.0
var jsonOut: String?
var serverPID: Int32?
do {
    var arguments = CommandLine.arguments.dropFirst()[...]
    while let argument = arguments.popFirst() {
        func value() -> String {
            guard let text = arguments.popFirst() else { fail("\(argument) needs a value") }
            return text
        }
        func decimal() -> Double {
            guard let number = Double(value()), number > 0 else { fail("\(argument) needs a positive number") }
            return number
        }
        func number() -> Int {
            guard let number = Int(value()), number > 0 else { fail("\(argument) needs a positive integer") }
            return number
        }
        switch argument {
        case "--sessions": sessionCount = number()
        case "--per": perSession = number()
        case "--modes": modes = value().split(separator: ",").map(String.init)
        case "--pace-seconds": paceSeconds = decimal()
        case "--post-conns": postConnections = number()
        case "--timeout": roundTimeout = decimal()
        case "--json-out": jsonOut = value()
        case "--server-pid": serverPID = Int32(number())
        case "-h", "--help":
            print("usage: sse-bench PORT [--sessions N] [--per N] [--modes burst,paced] [--pace-seconds S] [--post-conns N] [--timeout S] [--json-out FILE]")
            exit(0)
        default:
            guard let number = Int(argument), (1..<65536).contains(number) else { fail("bad argument '\(argument)'") }
            port = number
        }
    }
    guard port > 0 else { fail("give the server's port") }
    guard modes.allSatisfy({ $0 == "burst" || $0 == "paced" }) else { fail("--modes takes burst and paced") }
}

// MARK: - Clocks

func realtimeNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// The server's utime+stime in seconds, or nil without --server-pid.
@MainActor
func serverCPUSeconds() -> Double? {
    guard let serverPID, let text = try? String(contentsOfFile: "/proc/\(serverPID)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based), so 11 and 12 here (0-based).
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}

// MARK: - Sockets

@MainActor
func connectLoopback(nonBlocking: Bool) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { fail("socket: \(String(cString: strerror(errno)))") }
    _ = vh_set_nodelay(fd)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else { fail("connect: \(String(cString: strerror(errno)))") }
    if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return fd
}

func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
        let count = bytes.withUnsafeBytes { vh_send(fd, $0.baseAddress! + sent, $0.count - sent) }
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

func find(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    var index = bytes.startIndex
    while index + pattern.count <= bytes.endIndex {
        if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        index += 1
    }
    return nil
}

/// Reads one response with Content-Length from a blocking socket; returns the status and body.
func readResponse(_ fd: Int32, buffer: inout [UInt8]) -> (status: Int, body: [UInt8]) {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        if let end = find(Array("\r\n\r\n".utf8), in: buffer[...]) {
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            let status = Int(head.dropFirst(9).prefix(3)) ?? 0
            var length = 0
            for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            }
            if buffer.count >= end + 4 + length {
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return (status, body)
            }
        }
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

// MARK: - Sessions

struct SessionInfo {
    let id: String
    let token: String
}

@MainActor
func createSessions(_ count: Int) -> [SessionInfo] {
    let fd = connectLoopback(nonBlocking: false)
    defer { close(fd) }
    let body = #"{"features":["login"]}"#
    let request = Array(
        "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            .utf8)
    var sessions: [SessionInfo] = []
    var buffer: [UInt8] = []
    var sent = 0
    // Pipelined in batches of 32, so creating thousands takes a fraction of a second.
    while sessions.count < count {
        let batch = min(32, count - sent)
        sendAll(fd, Array([[UInt8]](repeating: request, count: batch).joined()))
        sent += batch
        for _ in 0..<batch {
            let (status, answer) = readResponse(fd, buffer: &buffer)
            guard status == 201, case .string(let id)? = try? JSONParser.parse(answer)["id"],
                case .string(let token)? = try? JSONParser.parse(answer)["token"]
            else { fail("POST /v1/sessions answered \(status): \(String(decoding: answer, as: UTF8.self))") }
            sessions.append(SessionInfo(id: id, token: token))
        }
    }
    return sessions
}

// MARK: - Streams

/// One SSE connection: its chunked body is parsed as it arrives; each complete event's arrival is recorded.
final class Stream {
    let fd: Int32
    let session: Int
    var buffer: [UInt8] = []
    var headDone = false
    var status = 0
    /// The event text so far (chunk framing removed).
    var text: [UInt8] = []
    var chunkRemaining: Int?
    /// (kernel arrival ns, read ns) of each event with data, in order.
    var events: [(arrived: Int64, read: Int64)] = []
    var closed = false

    init(fd: Int32, session: Int) {
        self.fd = fd
        self.session = session
    }

    func received(_ bytes: UnsafeRawBufferPointer, arrived: Int64, read: Int64) {
        buffer.append(contentsOf: bytes)
        if !headDone {
            guard let end = find(Array("\r\n\r\n".utf8), in: buffer[...]) else { return }
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
                    closed = true
                    break
                }
                chunkRemaining = size
            }
        }
        // Events end with a blank line; count the ones that carry data.
        while let end = find(Array("\n\n".utf8), in: text[...]) {
            let block = text[..<end]
            if find(Array("data:".utf8), in: block) != nil { events.append((arrived, read)) }
            text.removeFirst(end + 2)
        }
    }
}

_ = vh_raise_fd_limit()
let sessions = createSessions(sessionCount)
var streams: [Stream] = []
let epoll = vh_epoll_create()
var byFD: [Int32: Stream] = [:]
for (index, session) in sessions.enumerated() {
    for _ in 0..<perSession {
        let fd = connectLoopback(nonBlocking: true)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size))
        let stream = Stream(fd: fd, session: index)
        streams.append(stream)
        byFD[fd] = stream
        sendAll(
            fd,
            Array(
                "GET /v1/sessions/\(session.id)/stream?features=login HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(session.token)\r\nAccept: text/event-stream\r\n\r\n"
                    .utf8))
        _ = vh_epoll_add(epoll, fd, VH_EPOLLIN, UInt64(fd))
    }
}

/// Reads what every ready stream has, with the kernel's arrival time of each read.
let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)
let epollEvents = UnsafeMutablePointer<vh_epoll_event>.allocate(capacity: 512)

@MainActor
func pump(timeoutMilliseconds: Int32) {
    let count = vh_epoll_wait(epoll, epollEvents, 512, timeoutMilliseconds)
    guard count > 0 else { return }
    for index in 0..<Int(count) {
        guard let stream = byFD[Int32(truncatingIfNeeded: epollEvents[index].data)] else { continue }
        while true {
            var vector = iovec(iov_base: readBuffer.baseAddress, iov_len: readBuffer.count)
            var message = msghdr()
            let received = withUnsafeMutablePointer(to: &vector) { vectorPointer -> Int in
                message.msg_iov = vectorPointer
                message.msg_iovlen = 1
                message.msg_control = control.baseAddress
                message.msg_controllen = control.count
                return recvmsg(stream.fd, &message, Int32(MSG_DONTWAIT))
            }
            if received <= 0 {
                if received == 0 { stream.closed = true }
                break
            }
            let read = realtimeNanoseconds()
            var arrived = read
            // SCM_TIMESTAMPNS: the kernel's receive time of the first byte of this read.
            if message.msg_controllen >= MemoryLayout<cmsghdr>.size {
                let header = control.load(as: cmsghdr.self)
                if header.cmsg_level == SOL_SOCKET, header.cmsg_type == SO_TIMESTAMPNS {
                    let stamp = control.loadUnaligned(
                        fromByteOffset: MemoryLayout<cmsghdr>.size, as: timespec.self)
                    arrived = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
                }
            }
            stream.received(UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]), arrived: arrived, read: read)
        }
    }
}

@MainActor
func waitUntil(seconds: Double, _ done: () -> Bool) -> Bool {
    let deadline = realtimeNanoseconds() + Int64(seconds * 1e9)
    while !done() {
        if realtimeNanoseconds() > deadline { return false }
        pump(timeoutMilliseconds: 50)
    }
    return true
}

let allOpen = waitUntil(seconds: 60) { streams.allSatisfy { !$0.events.isEmpty || $0.closed } }
let openStreams = streams.filter { $0.status == 200 && !$0.events.isEmpty }.count

// MARK: - Rounds

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[max(0, min(sorted.count - 1, rank))]
}

func summary(_ values: [Double]) -> [String: Any] {
    let sorted = values.sorted()
    func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    return [
        "n": sorted.count, "p50": rounded(percentile(sorted, 0.5)), "p90": rounded(percentile(sorted, 0.9)),
        "p99": rounded(percentile(sorted, 0.99)), "max": rounded(sorted.last ?? 0),
    ]
}

let postConnectionFDs = (0..<min(postConnections, sessions.count)).map { _ in connectLoopback(nonBlocking: false) }
var rounds: [[String: Any]] = []
for (roundIndex, mode) in modes.enumerated() {
    let before = streams.map(\.events.count)
    let cpuBefore = cpuSeconds()
    let serverBefore = serverCPUSeconds()
    var sentAt = [Int64](repeating: 0, count: sessions.count)
    var pending = [[UInt8]](repeating: [], count: postConnectionFDs.count)
    var postsPerConnection = [Int](repeating: 0, count: postConnectionFDs.count)
    let start = realtimeNanoseconds()
    for (index, session) in sessions.enumerated() {
        let body = #"{"type":"setUsername","value":"\#(mode)-\#(roundIndex)-\#(index)"}"#
        let request = Array(
            "POST /v1/sessions/\(session.id)/login/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(session.token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                .utf8)
        let connection = index % postConnectionFDs.count
        postsPerConnection[connection] += 1
        if mode == "paced" {
            // Due times in ticks of 5 ms (the POSTs of one tick go together), waiting in epoll, not spinning.
            let spacing = paceSeconds * 1e9 / Double(sessions.count)
            let tick = 5_000_000.0
            let due = start + Int64((Double(index) * spacing / tick).rounded(.down) * tick)
            while true {
                let remaining = due - realtimeNanoseconds()
                if remaining <= 0 { break }
                pump(timeoutMilliseconds: Int32(max(1, remaining / 1_000_000)))
            }
            sentAt[index] = realtimeNanoseconds()
            sendAll(postConnectionFDs[connection], request)
        } else {
            pending[connection].append(contentsOf: request)
            sentAt[index] = 0
        }
    }
    if mode == "burst" {
        // Every POST written back to back, one send per connection; each session's time is its connection's write.
        for (connection, bytes) in pending.enumerated() where !bytes.isEmpty {
            let now = realtimeNanoseconds()
            sendAll(postConnectionFDs[connection], bytes)
            for index in stride(from: connection, to: sessions.count, by: postConnectionFDs.count) { sentAt[index] = now }
        }
    }
    let sendSpan = Double(realtimeNanoseconds() - start) / 1e9
    let delivered = waitUntil(seconds: roundTimeout) {
        zip(streams, before).allSatisfy { stream, count in stream.events.count > count || stream.closed }
    }
    let serverCPU = serverCPUSeconds().flatMap { after in serverBefore.map { ((after - $0) * 100).rounded() / 100 } }
    // The POST answers (202 each), read after the frames so they never delay the measurement.
    var statuses: [Int: Int] = [:]
    for (connection, fd) in postConnectionFDs.enumerated() {
        var buffer: [UInt8] = []
        for _ in 0..<postsPerConnection[connection] { statuses[readResponse(fd, buffer: &buffer).status, default: 0] += 1 }
    }
    var arrival: [Double] = []
    var read: [Double] = []
    var extra = 0
    for (stream, count) in zip(streams, before) where stream.events.count > count {
        let event = stream.events[count]
        arrival.append(Double(event.arrived - sentAt[stream.session]) / 1e6)
        read.append(Double(event.read - sentAt[stream.session]) / 1e6)
        extra += stream.events.count - count - 1
    }
    rounds.append([
        "mode": mode, "changes": sessions.count, "streams": streams.count, "delivered": arrival.count,
        "missing": streams.count - arrival.count, "all_delivered": delivered, "extra_frames": extra,
        "post_statuses": Dictionary(uniqueKeysWithValues: statuses.map { (String($0.key), $0.value) }),
        "send_span_s": (sendSpan * 1000).rounded() / 1000, "latency_ms": summary(arrival),
        "read_latency_ms": summary(read), "client_cpu_s": ((cpuSeconds() - cpuBefore) * 100).rounded() / 100,
        "server_cpu_s": serverCPU.map { $0 as Any } ?? NSNull(),
    ])
    _ = waitUntil(seconds: 1) { false }  // let timers and late frames settle between rounds
}

let result: [String: Any] = [
    "sessions": sessions.count, "per_session": perSession, "streams_wanted": sessions.count * perSession,
    "streams_open": openStreams, "all_opened": allOpen, "rounds": rounds,
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
if let jsonOut { _ = FileManager.default.createFile(atPath: jsonOut, contents: json) }
for stream in streams { close(stream.fd) }
for fd in postConnectionFDs { close(fd) }
