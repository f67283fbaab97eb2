// delivery-bench: chat messages between people's sessions, for Benchmarks/deliveries.sh. Measurement harness, not
// product code. Everything targets 127.0.0.1 and is bounded in count and time.
//
// Setup: PAIRS pairs of chat sessions (A_i, B_i); A_i invites (name "A<i>"), B_i redeems (name "B<i>"); the
// name A_i's chat lists B_i by is read from GET /v1/sessions/{A}/chat. Each B_i has one event stream open
// (GET /v1/sessions/{B}/stream?features=chat), each A_i one keep-alive connection for its POSTs; one epoll loop
// reads them all, with the kernel's receive timestamps (SO_TIMESTAMPNS).
// 1. latency: for each of RATES, that many messages/s in all, round robin over the pairs, for SECONDS: A_i posts
//    {"type":"send","contact":<B_i's name>,"text":"#L<k>#"}. Per message: the POST's write, the kernel arrival of
//    its 202, and the kernel arrival of the first event on B_i's stream whose text holds "#L<k>#".
// 2. throughput: closed loop for THROUGHPUT seconds per round, DEPTH requests in flight per A connection, alternately
//    to B_i (person) and to the seeded bot (--bot, default John); 202s per second, other statuses counted.
//    --latency-only leaves it out.
// --b-port makes the B's on another node (of a cluster sharing one store): they redeem and stream there, while the
// A's post to PORT, so every message crosses between the nodes.
// --hook CMD runs `CMD before` after setup, `CMD after N` once the first latency phase is all delivered (the script
// measures the store there) and `CMD throughput` just before the first throughput round (the script profiles it).
// Prints one JSON object (also to --json-out).
//
// Usage: delivery-bench PORT [--pairs N] [--rates N,N] [--seconds S] [--throughput-seconds S] [--depth N]
//                            [--rounds N] [--bot NAME] [--b-port PORT] [--latency-only] [--server-pid PID]
//                            [--hook CMD] [--json-out FILE]
import BenchSupport
import CSystemShim
import Foundation
import ViewHostJSON

#if canImport(Glibc)
import Glibc
#endif

var port = 0
/// The node B's sessions are made on, redeem there and are streamed from (default: PORT).
var bPort: Int?
var latencyOnly = false
var pairCount = 64
var rates = [1000.0]
var seconds = 10.0
var throughputSeconds = 5.0
var depth = 4
var throughputRounds = 2
var bot = "John"
var serverPID: Int32?
var hook: String?
var jsonOut: String?
do {
    var arguments = BenchArguments()
    while let argument = arguments.next() {
        switch argument {
        case "--pairs": pairCount = arguments.number()
        case "--rates":
            rates = arguments.value().split(separator: ",").compactMap { Double($0) }.filter { $0 > 0 }
            guard !rates.isEmpty else { fail("--rates takes positive numbers, comma separated") }
        case "--seconds": seconds = arguments.decimal()
        case "--throughput-seconds": throughputSeconds = arguments.decimal()
        case "--depth": depth = arguments.number()
        case "--rounds": throughputRounds = arguments.number()
        case "--bot": bot = arguments.value()
        case "--b-port": bPort = arguments.number()
        case "--latency-only": latencyOnly = true
        case "--server-pid": serverPID = Int32(arguments.number())
        case "--hook": hook = arguments.value()
        case "--json-out": jsonOut = arguments.value()
        default:
            port = arguments.port()
        }
    }
    guard port > 0 else { fail("give the server's port") }
}

// MARK: - Setup

_ = vh_raise_fd_limit()
let control = connectLoopback(port: port, nonBlocking: false)
var controlBuffer: [UInt8] = []
let controlB = connectLoopback(port: bPort ?? port, nonBlocking: false)
var controlBBuffer: [UInt8] = []
@MainActor
func createSession(onB: Bool = false) -> (id: String, token: String) {
    let (status, body) =
        onB
        ? exchange(controlB, "POST", "/v1/sessions", body: #"{"features":["chat"]}"#, buffer: &controlBBuffer)
        : exchange(control, "POST", "/v1/sessions", body: #"{"features":["chat"]}"#, buffer: &controlBuffer)
    guard status == 201, let id = string(json(body), "id"), let token = string(json(body), "token") else {
        fail("POST /v1/sessions answered \(status): \(String(decoding: body, as: UTF8.self))")
    }
    return (id, token)
}
var pairs: [Pair] = []
for index in 0..<pairCount {
    let a = createSession()
    let b = createSession(onB: true)
    let invited = exchange(
        control, "POST", "/v1/sessions/\(a.id)/invitations", token: a.token,
        body: #"{"purpose":"contact","features":["chat"],"name":"A\#(index)"}"#, buffer: &controlBuffer)
    guard invited.status == 201, let code = string(json(invited.body), "code") else {
        fail("invitation answered \(invited.status): \(String(decoding: invited.body, as: UTF8.self))")
    }
    let redeemed = exchange(
        controlB, "POST", "/v1/sessions/\(b.id)/contacts", token: b.token,
        body: #"{"code":"\#(code)","name":"B\#(index)"}"#, buffer: &controlBBuffer)
    guard redeemed.status == 201 else {
        fail("redeem answered \(redeemed.status): \(String(decoding: redeemed.body, as: UTF8.self))")
    }
    // The chat loads its list after a (simulated) delay and learns of the contact by a delivery: ask until both
    // the contact and the bot are listed, for at most 10 s.
    var all: [String] = []
    var chat: (status: Int, body: [UInt8]) = (0, [])
    let listedBy = realtimeNanoseconds() + 10_000_000_000
    repeat {
        chat = exchange(control, "GET", "/v1/sessions/\(a.id)/chat", token: a.token, buffer: &controlBuffer)
        guard chat.status == 200, let snapshot = json(chat.body) else { fail("GET chat answered \(chat.status)") }
        all = strings(in: snapshot)
        if all.contains(where: { $0.contains("B\(index)") }), all.contains(where: { $0.hasPrefix(bot) }) { break }
        usleep(20_000)
    } while realtimeNanoseconds() < listedBy
    // The chat lists the contact by the name it was redeemed with, or a name made from it; take the exact one if
    // it is there, else the shortest string holding it.
    guard let name = all.first(where: { $0 == "B\(index)" }) ?? all.filter({ $0.contains("B\(index)") }).min(by: { $0.count < $1.count })
    else { fail("A\(index)'s chat does not list B\(index): \(String(decoding: chat.body, as: UTF8.self).prefix(600))") }
    guard all.contains(bot) || all.contains(where: { $0.hasPrefix(bot) }) else {
        fail("A\(index)'s chat does not list the bot '\(bot)'")
    }
    pairs.append(Pair(a: a, b: b, nameOfB: name))
}

// MARK: - Connections

var messages: [String: Message] = [:]

/// Stamps the first frame of each message whose marker the event holds.
@MainActor
func stampMarkers(_ block: ArraySlice<UInt8>, arrived: Int64, read: Int64) {
    for marker in markers(in: block) {
        if let message = messages[marker], message.frameArrived == 0 {
            message.frameArrived = arrived
            message.frameRead = read
        }
    }
}

var connections: [Int32: Connection] = [:]
let epoll = vh_epoll_create()
var streams: [EventStreamParser] = []
var streamEvents = 0
/// Streams the server ended while the run went on (each opened again at once; its first snapshot then carries
/// the messages sent meanwhile).
var streamsReopened: [String] = []
/// Opens B's stream of `pair` (again), in place of the one it had.
@MainActor
func openStream(_ pair: Int) {
    let fd = connectLoopback(port: bPort ?? port, nonBlocking: true, timestamps: true)
    let parser = EventStreamParser { block, arrived, read in
        streamEvents += 1
        stampMarkers(block, arrived: arrived, read: read)
    }
    if pair < streams.count { streams[pair] = parser } else { streams.append(parser) }
    connections[fd] = .stream(parser, pair)
    sendAll(
        fd,
        Array(
            "GET /v1/sessions/\(pairs[pair].b.id)/stream?features=chat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(pairs[pair].b.token)\r\nAccept: text/event-stream\r\n\r\n"
                .utf8))
    _ = vh_epoll_add(epoll, fd, VH_EPOLLIN, UInt64(fd))
}
for pair in pairs.indices { openStream(pair) }
var senders: [Sender] = []
for _ in pairs {
    let fd = connectLoopback(port: port, nonBlocking: true, timestamps: true)
    let sender = Sender(fd: fd)
    senders.append(sender)
    connections[fd] = .sender(sender)
    _ = vh_epoll_add(epoll, fd, VH_EPOLLIN, UInt64(fd))
}

let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 262_144, alignment: 16)
let controlSpace = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)
let epollEvents = UnsafeMutablePointer<vh_epoll_event>.allocate(capacity: 512)
/// Called with each answer's marker once it is in: the closed loop sends the next there.
var onAnswer: (Int) -> Void = { _ in }

@MainActor
func pump(timeoutMilliseconds: Int32) {
    let count = vh_epoll_wait(epoll, epollEvents, 512, timeoutMilliseconds)
    guard count > 0 else { return }
    for index in 0..<Int(count) {
        let fd = Int32(truncatingIfNeeded: epollEvents[index].data)
        guard let connection = connections[fd] else { continue }
        while true {
            let (received, arrived, read) = receiveStamped(fd, into: readBuffer, control: controlSpace)
            if received == 0 {
                guard case .stream(let parser, let pair) = connections[fd] else {
                    fail("the server closed a POST connection")
                }
                // Ended by the server: noted, and opened again so the run goes on.
                streamsReopened.append("pair \(pair): status \(parser.status), ended \(parser.ended)")
                _ = vh_epoll_remove(epoll, fd)
                connections[fd] = nil
                close(fd)
                openStream(pair)
                break
            }
            if received < 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<received])
            switch connection {
            case .stream(let parser, _):
                parser.received(bytes, arrived: arrived, read: read)
            case .sender(let sender):
                sender.buffer.append(contentsOf: bytes)
                while let (status, body) = takeResponse(&sender.buffer) {
                    guard !sender.inFlight.isEmpty else { fail("an answer nobody asked for") }
                    let marker = sender.inFlight.removeFirst()
                    if let message = messages[marker] {
                        message.answered = arrived
                        message.status = status
                        if status != 202, unexpected.count < 5 {
                            unexpected.append("\(marker): \(status) \(String(decoding: body.prefix(300), as: UTF8.self))")
                        }
                    }
                    onAnswer(messages[marker]?.pair ?? 0)
                }
            }
        }
    }
}
var unexpected: [String] = []

@MainActor
func waitUntil(seconds: Double, _ done: () -> Bool) -> Bool {
    BenchSupport.waitUntil(seconds: seconds, pumping: { pump(timeoutMilliseconds: $0) }, done)
}

@MainActor
func post(_ marker: String, pair: Int, contact: String) {
    let sender = senders[pair]
    let session = pairs[pair].a
    let body = #"{"type":"send","contact":"\#(contact)","text":"\#(marker)"}"#
    let request = Array(
        "POST /v1/sessions/\(session.id)/chat/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(session.token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            .utf8)
    let message = Message(pair: pair)
    messages[marker] = message
    sender.inFlight.append(marker)
    message.written = realtimeNanoseconds()
    sendAll(sender.fd, request)
}

let allOpen = waitUntil(seconds: 30) { streams.allSatisfy { $0.headDone && streamEvents >= streams.count } }
guard allOpen, streams.allSatisfy({ $0.status == 200 }) else { fail("not every stream opened with 200") }
_ = waitUntil(seconds: 0.5) { false }
runHook(hook, "before")

// MARK: - 1. Latency at fixed rates

var latencySerial = 0
/// RATE messages/s for `seconds`, round robin over the pairs; the first phase measures the store around itself.
@MainActor
func latencyPhase(rate: Double, measuresStore: Bool) -> [String: Any] {
    let total = Int(rate * seconds)
    var latencyMarkers: [String] = []
    let cpuBefore = cpuSeconds()
    let serverBefore = processCPUSeconds(serverPID)
    let start = realtimeNanoseconds()
    for k in 0..<total {
        let due = start + Int64(Double(k) * 1e9 / rate)
        while true {
            let remaining = due - realtimeNanoseconds()
            if remaining <= 0 { break }
            pump(timeoutMilliseconds: remaining >= 1_000_000 ? Int32(remaining / 1_000_000) : 0)
        }
        latencySerial += 1
        let marker = "#L\(latencySerial)#"
        latencyMarkers.append(marker)
        post(marker, pair: k % pairs.count, contact: pairs[k % pairs.count].nameOfB)
    }
    let sendSpan = Double(realtimeNanoseconds() - start) / 1e9
    let allDelivered = waitUntil(seconds: 60) {
        latencyMarkers.allSatisfy { messages[$0].map { $0.status != 0 && ($0.status != 202 || $0.frameArrived != 0) } ?? true }
    }
    let lastFrame = latencyMarkers.compactMap { messages[$0]?.frameArrived }.max() ?? start
    let serverCPU = processCPUSeconds(serverPID).flatMap { after in serverBefore.map { after - $0 } }
    let clientCPU = cpuSeconds() - cpuBefore
    var fromAnswer: [Double] = []
    var fromWrite: [Double] = []
    var readFromAnswer: [Double] = []
    var answerTimes: [Double] = []
    var statuses: [String: Int] = [:]
    for marker in latencyMarkers {
        guard let message = messages[marker] else { continue }
        statuses[String(message.status), default: 0] += 1
        answerTimes.append(Double(message.answered - message.written) / 1e6)
        guard message.status == 202, message.frameArrived != 0 else { continue }
        fromAnswer.append(Double(message.frameArrived - message.answered) / 1e6)
        fromWrite.append(Double(message.frameArrived - message.written) / 1e6)
        readFromAnswer.append(Double(message.frameRead - message.answered) / 1e6)
    }
    let delivered = fromAnswer.count
    _ = waitUntil(seconds: 1) { false }
    if measuresStore { runHook(hook, "after \(delivered)") }
    var latency: [String: Any] = [
        "messages": total, "rate": rate, "seconds": seconds, "send_span_s": (sendSpan * 1000).rounded() / 1000,
        "delivered": delivered, "all_delivered": allDelivered, "post_statuses": statuses,
        "from_202_ms": summary(fromAnswer), "from_write_ms": summary(fromWrite),
        "read_from_202_ms": summary(readFromAnswer), "answer_ms": summary(answerTimes),
        "frame_before_202": fromAnswer.filter { $0 < 0 }.count,
        "span_to_last_frame_s": Double(lastFrame - start) / 1e9, "client_cpu_s": (clientCPU * 100).rounded() / 100,
    ]
    if let serverCPU {
        latency["server_cpu_s"] = (serverCPU * 100).rounded() / 100
        latency["server_cpu_us_per_message"] = (serverCPU / Double(max(1, delivered)) * 1e6).rounded()
    }
    return latency
}
let latencies = rates.enumerated().map { index, rate in latencyPhase(rate: rate, measuresStore: index == 0) }

// MARK: - 2. Throughput, closed loop

var rounds: [[String: Any]] = []
var serial = 0
for round in 0..<(latencyOnly ? 0 : 2 * throughputRounds) {
    let target = round % 2 == 0 ? "person" : "bot"
    if round == 0 { runHook(hook, "throughput") }
    var roundMarkers: [String] = []
    let roundStart = realtimeNanoseconds()
    let roundEnd = roundStart + Int64(throughputSeconds * 1e9)
    let serverBeforeRound = processCPUSeconds(serverPID)
    func next(_ pair: Int) {
        guard realtimeNanoseconds() < roundEnd else { return }
        serial += 1
        let marker = "#T\(serial)#"
        roundMarkers.append(marker)
        post(marker, pair: pair, contact: target == "person" ? pairs[pair].nameOfB : bot)
    }
    onAnswer = next
    for pair in pairs.indices { for _ in 0..<depth { next(pair) } }
    while realtimeNanoseconds() < roundEnd { pump(timeoutMilliseconds: 5) }
    onAnswer = { _ in }
    _ = waitUntil(seconds: 30) { senders.allSatisfy { $0.inFlight.isEmpty } }
    let serverCPURound = processCPUSeconds(serverPID).flatMap { after in serverBeforeRound.map { after - $0 } }
    var roundStatuses: [String: Int] = [:]
    var accepted = 0
    for marker in roundMarkers {
        guard let message = messages[marker] else { continue }
        roundStatuses[String(message.status), default: 0] += 1
        if message.status == 202, message.answered <= roundEnd { accepted += 1 }
    }
    var entry: [String: Any] = [
        "target": target, "seconds": throughputSeconds, "posts": roundMarkers.count, "statuses": roundStatuses,
        "accepted_in_window": accepted, "per_second": (Double(accepted) / throughputSeconds).rounded(),
    ]
    if target == "person" {
        let everyOne = waitUntil(seconds: 30) {
            roundMarkers.allSatisfy { messages[$0].map { $0.status != 202 || $0.frameArrived != 0 } ?? true }
        }
        let last = roundMarkers.compactMap { messages[$0]?.frameArrived }.max() ?? roundStart
        entry["all_delivered"] = everyOne
        entry["last_frame_after_start_s"] = (Double(last - roundStart) / 1e6).rounded() / 1000
    }
    if let serverCPURound { entry["server_cpu_s"] = (serverCPURound * 100).rounded() / 100 }
    rounds.append(entry)
    _ = waitUntil(seconds: 1) { false }  // bot replies and late frames settle
}

let result: [String: Any] = [
    "pairs": pairs.count, "name_of_b_example": pairs.first?.nameOfB ?? "", "latency": latencies,
    "throughput": rounds, "unexpected": unexpected, "streams_reopened": streamsReopened,
    "ids": ["senders": pairs.map(\.a.id), "receivers": pairs.map(\.b.id)],
]
let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: data, as: UTF8.self))
if let jsonOut { _ = FileManager.default.createFile(atPath: jsonOut, contents: data) }
