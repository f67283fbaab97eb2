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
// is not counted; the time the client read them is reported too ("read" latency). The POST's answer (202, sent
// once the change is durable) is stamped the same way ("answer" latency): a frame's latency less its session's
// answer's is the fan-out, the answer's own is the queue, the apply and the commit.
//
// Usage: sse-bench PORT [--sessions N] [--per N] [--modes burst,paced] [--pace-seconds S] [--post-conns N]
//                       [--timeout S] [--server-pid PID] [--json-out FILE]
// With --server-pid, each round also reports the server's CPU seconds (utime+stime from /proc/PID/stat) from
// just before its first POST until its last event arrived.
// Prints one JSON object (also to --json-out).
import BenchSupport
import CSystemShim
import Foundation
import ViewHostJSON

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Options

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
    var arguments = BenchArguments()
    while let argument = arguments.next() {
        switch argument {
        case "--sessions": sessionCount = arguments.number()
        case "--per": perSession = arguments.number()
        case "--modes": modes = arguments.value().split(separator: ",").map(String.init)
        case "--pace-seconds": paceSeconds = arguments.decimal()
        case "--post-conns": postConnections = arguments.number()
        case "--timeout": roundTimeout = arguments.decimal()
        case "--json-out": jsonOut = arguments.value()
        case "--server-pid": serverPID = Int32(arguments.number())
        case "-h", "--help":
            print("usage: sse-bench PORT [--sessions N] [--per N] [--modes burst,paced] [--pace-seconds S] [--post-conns N] [--timeout S] [--json-out FILE]")
            exit(0)
        default:
            port = arguments.port()
        }
    }
    guard port > 0 else { fail("give the server's port") }
    guard modes.allSatisfy({ $0 == "burst" || $0 == "paced" }) else { fail("--modes takes burst and paced") }
}

// MARK: - Sessions

struct SessionInfo {
    let id: String
    let token: String
}

@MainActor
func createSessions(_ count: Int) -> [SessionInfo] {
    let fd = connectLoopback(port: port, nonBlocking: false)
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

/// One SSE connection and the (kernel arrival ns, read ns) of each of its events with data, in order.
final class Stream {
    let fd: Int32
    let session: Int
    var events: [(arrived: Int64, read: Int64)] = []
    var closed = false
    lazy var parser = EventStreamParser { [unowned self] _, arrived, read in self.events.append((arrived, read)) }

    init(fd: Int32, session: Int) {
        self.fd = fd
        self.session = session
    }

    var status: Int { parser.status }
}

_ = vh_raise_fd_limit()
let sessions = createSessions(sessionCount)
var streams: [Stream] = []
let epoll = vh_epoll_create()
var byFD: [Int32: Stream] = [:]
for (index, session) in sessions.enumerated() {
    for _ in 0..<perSession {
        let fd = connectLoopback(port: port, nonBlocking: true, timestamps: true)
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

/// One keep-alive connection the POSTs go over: its answers, each with the kernel's arrival time of the read that
/// completed it, in the order they came (the order of the POSTs written on it).
final class PostConnection {
    let fd: Int32
    var buffer: [UInt8] = []
    var answers: [(status: Int, arrived: Int64)] = []

    init(fd: Int32) { self.fd = fd }
}

var postsByFD: [Int32: PostConnection] = [:]

/// Reads what every ready stream has, with the kernel's arrival time of each read.
let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)
let epollEvents = UnsafeMutablePointer<vh_epoll_event>.allocate(capacity: 512)

@MainActor
func pump(timeoutMilliseconds: Int32) {
    let count = vh_epoll_wait(epoll, epollEvents, 512, timeoutMilliseconds)
    guard count > 0 else { return }
    for index in 0..<Int(count) {
        let fd = Int32(truncatingIfNeeded: epollEvents[index].data)
        if let post = postsByFD[fd] {
            readAnswers(post)
            continue
        }
        guard let stream = byFD[fd] else { continue }
        while true {
            let (received, arrived, read) = receiveStamped(stream.fd, into: readBuffer, control: control)
            if received <= 0 {
                if received == 0 { stream.closed = true }
                break
            }
            stream.parser.received(UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]), arrived: arrived, read: read)
            if stream.parser.ended { stream.closed = true }
        }
    }
}

/// Reads the answers that arrived on a POST connection.
@MainActor
func readAnswers(_ post: PostConnection) {
    while true {
        let (received, arrived, _) = receiveStamped(post.fd, into: readBuffer, control: control)
        guard received > 0 else {
            if received == 0 { fail("the server closed a POST connection") }
            return
        }
        post.buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]))
        while let response = takeResponse(&post.buffer) { post.answers.append((response.status, arrived)) }
    }
}

@MainActor
func waitUntil(seconds: Double, _ done: () -> Bool) -> Bool {
    BenchSupport.waitUntil(seconds: seconds, pumping: { pump(timeoutMilliseconds: $0) }, pollMilliseconds: 50, done)
}

let allOpen = waitUntil(seconds: 60) { streams.allSatisfy { !$0.events.isEmpty || $0.closed } }
let openStreams = streams.filter { $0.status == 200 && !$0.events.isEmpty }.count

// MARK: - Rounds

let postConnectionFDs = (0..<min(postConnections, sessions.count)).map { _ in
    connectLoopback(port: port, nonBlocking: false, timestamps: true)
}
for fd in postConnectionFDs {
    postsByFD[fd] = PostConnection(fd: fd)
    _ = vh_epoll_add(epoll, fd, VH_EPOLLIN, UInt64(fd))
}
var rounds: [[String: Any]] = []
for (roundIndex, mode) in modes.enumerated() {
    let before = streams.map(\.events.count)
    let cpuBefore = cpuSeconds()
    let serverBefore = processCPUSeconds(serverPID)
    var sentAt = [Int64](repeating: 0, count: sessions.count)
    var pending = [[UInt8]](repeating: [], count: postConnectionFDs.count)
    var postsPerConnection = [Int](repeating: 0, count: postConnectionFDs.count)
    for post in postsByFD.values { post.answers.removeAll() }
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
    let serverCPU = processCPUSeconds(serverPID).flatMap { after in serverBefore.map { ((after - $0) * 100).rounded() / 100 } }
    // Every POST's answer (202 each): the k-th answer on connection c is session c + k × connections'.
    _ = waitUntil(seconds: roundTimeout) {
        postConnectionFDs.enumerated().allSatisfy { postsByFD[$1]!.answers.count >= postsPerConnection[$0] }
    }
    var statuses: [Int: Int] = [:]
    var answered = [Int64](repeating: 0, count: sessions.count)
    for (connection, fd) in postConnectionFDs.enumerated() {
        for (k, answer) in postsByFD[fd]!.answers.enumerated() {
            statuses[answer.status, default: 0] += 1
            let session = connection + k * postConnectionFDs.count
            if session < sessions.count { answered[session] = answer.arrived }
        }
    }
    let answeredPosts = sentAt.indices.filter { answered[$0] > 0 }
    let answers = answeredPosts.map { Double(answered[$0] - sentAt[$0]) / 1e6 }
    // SSE_BENCH_TRACE=PATH appends each POST's write time (ns, CLOCK_REALTIME) and answer latency (ms), one per line,
    // to find what a slow answer coincided with on the server.
    if let trace = ProcessInfo.processInfo.environment["SSE_BENCH_TRACE"], let file = FileHandle(forWritingAtPath: trace) {
        file.seekToEndOfFile()
        let lines = zip(answeredPosts, answers).map { "\(mode) \(sentAt[$0]) \($1)\n" }.joined()
        file.write(Data(lines.utf8))
        try? file.close()
    }
    var arrival: [Double] = []
    var read: [Double] = []
    var fanOut: [Double] = []
    var extra = 0
    for (stream, count) in zip(streams, before) where stream.events.count > count {
        let event = stream.events[count]
        arrival.append(Double(event.arrived - sentAt[stream.session]) / 1e6)
        if answered[stream.session] > 0 { fanOut.append(Double(event.arrived - answered[stream.session]) / 1e6) }
        read.append(Double(event.read - sentAt[stream.session]) / 1e6)
        extra += stream.events.count - count - 1
    }
    rounds.append([
        "mode": mode, "changes": sessions.count, "streams": streams.count, "delivered": arrival.count,
        "missing": streams.count - arrival.count, "all_delivered": delivered, "extra_frames": extra,
        "post_statuses": Dictionary(uniqueKeysWithValues: statuses.map { (String($0.key), $0.value) }),
        "send_span_s": (sendSpan * 1000).rounded() / 1000, "latency_ms": summary(arrival),
        "read_latency_ms": summary(read), "answer_latency_ms": summary(answers),
        "frame_after_answer_ms": summary(fanOut), "client_cpu_s": ((cpuSeconds() - cpuBefore) * 100).rounded() / 100,
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
