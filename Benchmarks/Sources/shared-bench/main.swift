// shared-bench: a native load client for one shared session, for Benchmarks/shared.sh (issue 43). Measurement
// harness, not product code. Everything targets 127.0.0.1 and is bounded in count and time.
//
// --phase fanout: creates one session with the person feature and PARTICIPANTS members (join invitations of 100
//   uses each, then POST /v1/invitations/{code}), opens one stream per member with the member's own token (with
//   --owner-streams, the same number of streams with the owner's token and no members: the baseline a member's
//   memory is counted against), waits for every stream's first snapshot and reports the server's RSS. Then each
//   round of --modes posts EVENTS setPerson events as the owner:
//     paced  one every --pace-seconds / EVENTS
//     burst  all written at once, each on a keep-alive connection of its own (by a member each; the owner in the
//            baseline)
//   An event's latency = the arrival (kernel receive timestamp) at the LAST stream of a frame of its version or a
//   later one (a stream that is behind gets the newest version, not each) − the moment its POST was written.
// --phase throughput: POSTERS posters post setPerson closed-loop (the next once the 202 came) for --seconds: first
//   as POSTERS members of one shared session, then as the owners of POSTERS sessions of their own; events per
//   second of each and the ratio.
// --feature NAME --event JSON: another shareable feature and its event (NAME in the JSON is replaced by a unique
// text), e.g. a viewer-dependent one. Prints one JSON object (also to --json-out).
import BenchSupport
import CSystemShim
import Foundation
import ViewHostJSON

#if canImport(Glibc)
import Glibc
#endif

var port = 0
var phase = "fanout"
var participantCount = 1000
var eventCount = 100
var modes = ["paced", "burst"]
var paceSeconds = 5.0
var ownerStreams = false
var posterCount = 64
var throughputSeconds = 5.0
var feature = "person"
var eventTemplate = #"{"type":"setPerson","firstName":"NAME","lastName":"Shared","birthdate":"1990-01-01"}"#
var jsonOut: String?
var serverPID: Int32?
do {
    var arguments = BenchArguments()
    while let argument = arguments.next() {
        switch argument {
        case "--phase": phase = arguments.value()
        case "--participants": participantCount = arguments.number()
        case "--events": eventCount = arguments.number()
        case "--modes": modes = arguments.value().split(separator: ",").map(String.init)
        case "--pace-seconds": paceSeconds = arguments.decimal()
        case "--owner-streams": ownerStreams = true
        case "--posters": posterCount = arguments.number()
        case "--seconds": throughputSeconds = arguments.decimal()
        case "--feature": feature = arguments.value()
        case "--event": eventTemplate = arguments.value()
        case "--json-out": jsonOut = arguments.value()
        case "--server-pid": serverPID = Int32(arguments.number())
        case "-h", "--help":
            print("usage: shared-bench PORT [--phase fanout|throughput] [--participants N] [--events N] [--modes paced,burst] [--pace-seconds S] [--owner-streams] [--posters N] [--seconds S] [--feature NAME --event JSON-WITH-NAME] [--server-pid PID] [--json-out FILE]")
            exit(0)
        default:
            port = arguments.port()
        }
    }
    guard port > 0 else { fail("give the server's port") }
    guard phase == "fanout" || phase == "throughput" else { fail("--phase takes fanout or throughput") }
    guard modes.allSatisfy({ $0 == "burst" || $0 == "paced" }) else { fail("--modes takes paced and burst") }
}

// MARK: - Requests

struct Credential {
    let session: String
    let token: String
}

@MainActor
/// The event posted: --event with NAME replaced (by default the person feature's setPerson).
func person(_ name: String) -> String {
    eventTemplate.replacingOccurrences(of: "NAME", with: name)
}

@MainActor
func postRequest(_ credential: Credential, body: String) -> [UInt8] {
    Array(
        "POST /v1/sessions/\(credential.session)/\(feature)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(credential.token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            .utf8)
}

@MainActor
func field(_ name: String, of body: [UInt8]) -> JSONValue? { try? JSONParser.parse(body)[name] }

@MainActor
func string(_ name: String, of body: [UInt8]) -> String? {
    if case .string(let value)? = field(name, of: body) { value } else { nil }
}

@MainActor
func integer(_ name: String, of body: [UInt8]) -> Int? {
    if case .number(let value)? = field(name, of: body) { Int(value) } else { nil }
}

/// A new session with the person feature: its id and the owner's token.
@MainActor
func createSession(_ fd: Int32, buffer: inout [UInt8]) -> Credential {
    let answer = exchange(fd, "POST", "/v1/sessions", body: #"{"features":["\#(feature)"]}"#, buffer: &buffer)
    guard answer.status == 201, let id = string("id", of: answer.body), let token = string("token", of: answer.body)
    else { fail("POST /v1/sessions answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))") }
    return Credential(session: id, token: token)
}

/// `count` members of `owner`'s session, each joined with a code (100 uses per invitation): their credentials.
@MainActor
func join(_ count: Int, to owner: Credential, fd: Int32, buffer: inout [UInt8]) -> [Credential] {
    var members: [Credential] = []
    while members.count < count {
        let uses = min(100, count - members.count)
        let invitation = exchange(
            fd, "POST", "/v1/sessions/\(owner.session)/invitations", token: owner.token,
            body: #"{"purpose":"join","uses":\#(uses)}"#, buffer: &buffer)
        guard invitation.status == 201, let code = string("code", of: invitation.body) else {
            fail("a join invitation answered \(invitation.status): \(String(decoding: invitation.body, as: UTF8.self))")
        }
        for _ in 0..<uses {
            let joined = exchange(
                fd, "POST", "/v1/invitations/\(code)", body: #"{"name":"Member \#(members.count)"}"#, buffer: &buffer)
            guard joined.status == 201, let token = string("token", of: joined.body) else {
                fail("a join answered \(joined.status): \(String(decoding: joined.body, as: UTF8.self))")
            }
            members.append(Credential(session: owner.session, token: token))
        }
    }
    return members
}

/// The server's resident set in KiB (VmRSS), if its pid was given.
@MainActor
func residentKiB() -> Int? {
    guard let serverPID, let status = try? String(contentsOfFile: "/proc/\(serverPID)/status", encoding: .utf8) else {
        return nil
    }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
}

// MARK: - Sockets

let epoll = vh_epoll_create()
let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)
let epollEvents = UnsafeMutablePointer<vh_epoll_event>.allocate(capacity: 512)

/// One stream: the (id, kernel arrival ns) of each versioned frame, in order.
@MainActor
final class Stream {
    let fd: Int32
    var frames: [(id: Int, arrived: Int64)] = []
    var closed = false
    lazy var parser = EventStreamParser { [unowned self] block, arrived, _ in
        // A presence frame has no id: it is not a version.
        guard block.starts(with: Array("id: ".utf8)), let end = block.firstIndex(of: 0x0A),
            let id = Int(String(decoding: block[(block.startIndex + 4)..<end], as: UTF8.self))
        else { return }
        self.frames.append((id, arrived))
    }

    init(fd: Int32) { self.fd = fd }
}

/// A keep-alive connection whose answers are kept with the kernel's arrival time of the read that completed each.
@MainActor
final class Connection {
    let fd: Int32
    var buffer: [UInt8] = []
    var answers: [(status: Int, body: [UInt8], arrived: Int64)] = []

    init(fd: Int32) { self.fd = fd }
}

var streamsByFD: [Int32: Stream] = [:]
var connectionsByFD: [Int32: Connection] = [:]

@MainActor
func pump(timeoutMilliseconds: Int32) {
    let count = vh_epoll_wait(epoll, epollEvents, 512, timeoutMilliseconds)
    guard count > 0 else { return }
    for index in 0..<Int(count) {
        let fd = Int32(truncatingIfNeeded: epollEvents[index].data)
        while true {
            let (received, arrived, read) = receiveStamped(fd, into: readBuffer, control: control)
            if received <= 0 {
                if received == 0 {
                    streamsByFD[fd]?.closed = true
                    if connectionsByFD[fd] != nil { fail("the server closed a POST connection") }
                }
                break
            }
            let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<received])
            if let stream = streamsByFD[fd] {
                stream.parser.received(bytes, arrived: arrived, read: read)
                if stream.parser.ended { stream.closed = true }
            } else if let connection = connectionsByFD[fd] {
                connection.buffer.append(contentsOf: bytes)
                while let answer = takeResponse(&connection.buffer) {
                    connection.answers.append((answer.status, answer.body, arrived))
                }
            }
        }
    }
}

@MainActor
func waitUntil(seconds: Double, _ done: () -> Bool) -> Bool {
    BenchSupport.waitUntil(seconds: seconds, pumping: { pump(timeoutMilliseconds: $0) }, done)
}

@MainActor
func openConnection() -> Connection {
    let connection = Connection(fd: connectLoopback(port: port, nonBlocking: true, timestamps: true))
    connectionsByFD[connection.fd] = connection
    _ = vh_epoll_add(epoll, connection.fd, VH_EPOLLIN, UInt64(connection.fd))
    return connection
}

@MainActor
func openStream(_ credential: Credential) -> Stream {
    let stream = Stream(fd: connectLoopback(port: port, nonBlocking: true, timestamps: true))
    streamsByFD[stream.fd] = stream
    sendAll(
        stream.fd,
        Array(
            "GET /v1/sessions/\(credential.session)/stream?features=\(feature) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(credential.token)\r\nAccept: text/event-stream\r\n\r\n"
                .utf8))
    _ = vh_epoll_add(epoll, stream.fd, VH_EPOLLIN, UInt64(stream.fd))
    return stream
}

// MARK: - Phases

/// One shared session's fan-out: memory with every stream open, then the latency rounds.
@MainActor
func fanOut() -> [String: Any] {
    let setup = connectLoopback(port: port, nonBlocking: false)
    var buffer: [UInt8] = []
    let owner = createSession(setup, buffer: &buffer)
    let rssBefore = residentKiB()
    let members = ownerStreams ? [] : join(participantCount, to: owner, fd: setup, buffer: &buffer)
    close(setup)
    let rssJoined = residentKiB()
    let streams = (0..<participantCount).map { openStream(ownerStreams ? owner : members[$0]) }
    let allOpen = waitUntil(seconds: 60) { streams.allSatisfy { !$0.frames.isEmpty || $0.closed } }
    _ = waitUntil(seconds: 1) { false }  // let the server settle before its RSS is read
    let rssStreams = residentKiB()
    let open = streams.filter { $0.parser.status == 200 && !$0.frames.isEmpty }.count

    let poster = openConnection()
    // The burst's posters: the first members (the owner in the baseline), each on a connection of its own.
    let posters = (0..<eventCount).map { ownerStreams || members.isEmpty ? owner : members[$0 % members.count] }
    let burstConnections = (0..<eventCount).map { _ in openConnection() }
    // One event first: its version and the stream's frame id for it give the offset between the feature's
    // version (in the 202) and the session's sequence (the frames' ids).
    let before = streams.map(\.frames.count)
    sendAll(poster.fd, postRequest(owner, body: person("Warmup")))
    guard waitUntil(seconds: 30, { !poster.answers.isEmpty && zip(streams, before).allSatisfy { $0.frames.count > $1 } }),
        let warmVersion = integer("version", of: poster.answers[0].body), let warmFrame = streams[0].frames.last
    else { fail("the warm-up event was not answered and streamed within 30 s") }
    let offset = warmFrame.id - warmVersion
    poster.answers.removeAll()

    var rounds: [[String: Any]] = []
    for (roundIndex, mode) in modes.enumerated() {
        let counts = streams.map(\.frames.count)
        let serverBefore = processCPUSeconds(serverPID)
        var sentAt = [Int64](repeating: 0, count: eventCount)
        let start = realtimeNanoseconds()
        if mode == "burst" {
            // Each event from a connection of its own, as many people post (one connection's requests are
            // answered in order, each once durable: pipelined on one, they would wait for each other's commit).
            for index in 0..<eventCount {
                let request = postRequest(posters[index], body: person("R\(roundIndex)E\(index)"))
                sentAt[index] = realtimeNanoseconds()
                sendAll(burstConnections[index].fd, request)
            }
        } else {
            let spacing = paceSeconds * 1e9 / Double(eventCount)
            for index in 0..<eventCount {
                let due = start + Int64(Double(index) * spacing)
                while case let remaining = due - realtimeNanoseconds(), remaining > 0 {
                    pump(timeoutMilliseconds: Int32(max(1, remaining / 1_000_000)))
                }
                sentAt[index] = realtimeNanoseconds()
                sendAll(poster.fd, postRequest(owner, body: person("R\(roundIndex)E\(index)")))
            }
        }
        let answers = { mode == "burst" ? burstConnections.compactMap(\.answers.first) : Array(poster.answers.prefix(eventCount)) }
        let answered = waitUntil(seconds: 60) { answers().count >= eventCount }
        let versions = answers().map { integer("version", of: $0.body) ?? Int.max }
        let lastID = (versions.filter { $0 != Int.max }.max() ?? 0) + offset
        let delivered = waitUntil(seconds: 60) {
            streams.allSatisfy { ($0.frames.last?.id ?? 0) >= lastID || $0.closed }
        }
        let serverCPU = processCPUSeconds(serverPID).flatMap { after in serverBefore.map { ((after - $0) * 100).rounded() / 100 } }
        var latencies: [Double] = []
        var missing = 0
        for (index, version) in versions.enumerated() where version != Int.max {
            // The moment the last stream had this version (or a later one).
            var last: Int64 = 0
            var complete = true
            for (stream, count) in zip(streams, counts) {
                guard let frame = stream.frames[count...].first(where: { $0.id >= version + offset }) else {
                    complete = false
                    break
                }
                last = max(last, frame.arrived)
            }
            if complete { latencies.append(Double(last - sentAt[index]) / 1e6) } else { missing += 1 }
        }
        let statuses = Dictionary(grouping: answers(), by: \.status).mapValues(\.count)
        poster.answers.removeAll()
        for connection in burstConnections { connection.answers.removeAll() }
        rounds.append([
            "mode": mode, "events": eventCount, "answered": answered, "all_delivered": delivered,
            "events_missing_somewhere": missing, "post_statuses": Dictionary(uniqueKeysWithValues: statuses.map { (String($0.key), $0.value) }),
            "last_stream_latency_ms": summary(latencies),
            "server_cpu_s": serverCPU.map { $0 as Any } ?? NSNull(),
        ])
        _ = waitUntil(seconds: 1) { false }
    }
    for stream in streams { close(stream.fd) }
    close(poster.fd)
    for connection in burstConnections { close(connection.fd) }
    return [
        "phase": "fanout", "participants": ownerStreams ? 0 : participantCount, "streams_wanted": participantCount,
        "streams_open": open, "all_opened": allOpen, "owner_streams": ownerStreams,
        "rss_kib": ["session": rssBefore ?? -1, "joined": rssJoined ?? -1, "streams_open": rssStreams ?? -1],
        "rounds": rounds,
    ]
}

/// Closed-loop posting for `throughputSeconds` by one connection per credential: answers per second and statuses.
@MainActor
func post(as credentials: [Credential]) -> [String: Any] {
    let connections = credentials.map { _ in openConnection() }
    var sent = [Int](repeating: 0, count: credentials.count)
    let serverBefore = processCPUSeconds(serverPID)
    let start = realtimeNanoseconds()
    let end = start + Int64(throughputSeconds * 1e9)
    for (index, connection) in connections.enumerated() {
        sendAll(connection.fd, postRequest(credentials[index], body: person("T\(index)N0")))
        sent[index] = 1
    }
    while realtimeNanoseconds() < end {
        pump(timeoutMilliseconds: 5)
        for (index, connection) in connections.enumerated() where connection.answers.count == sent[index] {
            sendAll(connection.fd, postRequest(credentials[index], body: person("T\(index)N\(sent[index])")))
            sent[index] += 1
        }
    }
    let elapsed = Double(realtimeNanoseconds() - start) / 1e9
    _ = waitUntil(seconds: 30) { zip(connections, sent).allSatisfy { $0.answers.count >= $1 } }
    let serverCPU = processCPUSeconds(serverPID).flatMap { after in serverBefore.map { ((after - $0) * 100).rounded() / 100 } }
    let answers = connections.flatMap(\.answers)
    let accepted = answers.filter { $0.status == 202 }.count
    let statuses = Dictionary(grouping: answers, by: \.status).mapValues(\.count)
    for connection in connections { close(connection.fd) }
    return [
        "posters": credentials.count, "seconds": (elapsed * 1000).rounded() / 1000, "accepted": accepted,
        "events_per_second": (Double(accepted) / elapsed).rounded(),
        "post_statuses": Dictionary(uniqueKeysWithValues: statuses.map { (String($0.key), $0.value) }),
        "server_cpu_s": serverCPU.map { $0 as Any } ?? NSNull(),
    ]
}

@MainActor
func throughput() -> [String: Any] {
    let setup = connectLoopback(port: port, nonBlocking: false)
    var buffer: [UInt8] = []
    let owner = createSession(setup, buffer: &buffer)
    let members = join(posterCount, to: owner, fd: setup, buffer: &buffer)
    let personal = (0..<posterCount).map { _ in createSession(setup, buffer: &buffer) }
    close(setup)
    let shared = post(as: members)
    let own = post(as: personal)
    let ratio = (own["events_per_second"] as? Double).flatMap { base in
        base > 0 ? ((shared["events_per_second"] as? Double ?? 0) / base * 100).rounded() / 100 : nil
    }
    return ["phase": "throughput", "shared": shared, "personal": own, "ratio": ratio.map { $0 as Any } ?? NSNull()]
}

_ = vh_raise_fd_limit()
let result = phase == "fanout" ? fanOut() : throughput()
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
if let jsonOut { _ = FileManager.default.createFile(atPath: jsonOut, contents: json) }
