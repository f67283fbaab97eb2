// viewhost-bench: a tiny server on HTTPCore that serves the same two routes as the peers in
// ../shared/bench (hb-peer, ff-peer), for Benchmarks/run.sh. Measurement harness, not product code.
//
//   GET  /bench/snapshot  the same 1,204 bytes as the peers (application/json). Unlike the peers, which
//                         encode on every request, the document is encoded ONCE at startup and the cached
//                         bytes are served: the product's design is "encode each immutable version once".
//   POST /bench/event     {"type":"send","text":"hi"} decoded with the product's own JSON parser
//                         (ViewHostJSON, as the ViewHost library decodes events; 400 when it is not that JSON),
//                         appended to an in-memory log under a lock, answered 200 {"version":N}
//                         (N = events held; the reply is formatted directly, not with JSONEncoder).
//
// Usage: viewhost-bench [PORT] [--idle-seconds N] [--max-connections N] [--loops N]
//   PORT defaults to 8085; host is always 127.0.0.1; loops default to one per core; log level critical.
//   --idle-seconds sets the keep-alive idle timeout (HTTPCore's default otherwise, 60 s);
//   --max-connections the open-connection cap (default 20,000, above the 10,000 of the idle test).
// Stops on SIGTERM/SIGINT (default action); it holds nothing that needs flushing.
import Foundation
import HTTPCore
import Logging
import ViewHostJSON
import ViewHostLocking

// MARK: - The fixture (copied from ../shared/bench/peers/Sources/BenchModel; no dependency on that package)

struct ChatItem: Codable, Sendable {
    var contact: String
    var message: String
    var lastMessageDate: Date
    var unreadMessageCount: Int
}

struct ChatListViewModel: Codable, Sendable {
    var title: String
    var items: [ChatItem]

    /// The fixed document of GET /bench/snapshot: 2024-05-01T08:00:00Z, then one item every 37 minutes back.
    static let fixture: ChatListViewModel = {
        let base = Date(timeIntervalSince1970: 1_714_550_400)
        let rows: [(String, String, Int)] = [
            ("Alice Johnson", "See you at ten!", 2),
            ("Bob Martinez", "Fix is pushed.", 0),
            ("Carol Nguyen", "Review my PR?", 5),
            ("David Kim", "Lunch at noon?", 1),
            ("Eve Okafor", "Build is green.", 0),
            ("Frank Muller", "Slides sent.", 3),
            ("Grace Lee", "Still on today?", 0),
            ("Heidi Rossi", "Cake in kitchen!", 7),
            ("Ivan Petrov", "Deploy is done.", 0),
            ("Judy Tanaka", "Sync moved to 3pm.", 4),
        ]
        let items = rows.enumerated().map { index, row in
            ChatItem(
                contact: row.0, message: row.1,
                lastMessageDate: base.addingTimeInterval(-Double(index) * 37 * 60),
                unreadMessageCount: row.2)
        }
        return ChatListViewModel(title: "Chats", items: items)
    }()
}

/// Body of POST /bench/event.
struct ClientEvent: Codable, Sendable {
    var type: String
    var text: String
}

/// The in-memory event log; the version is the number of events so far.
final class EventLog: Sendable {
    private let events = Locked<[ClientEvent]>([])

    func append(_ event: ClientEvent) -> Int {
        events.withLock { events in
            events.append(event)
            return events.count
        }
    }
}

// MARK: - Arguments

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("viewhost-bench: \(message)\n".utf8))
    exit(2)
}

var port = 8085
var idleSeconds: Int?
var maxConnections = 20_000
var loops = 0
var arguments = CommandLine.arguments.dropFirst()[...]
while let argument = arguments.popFirst() {
    func value() -> Int {
        guard let text = arguments.popFirst(), let number = Int(text), number > 0 else {
            fail("\(argument) needs a positive integer")
        }
        return number
    }
    switch argument {
    case "--idle-seconds": idleSeconds = value()
    case "--max-connections": maxConnections = value()
    case "--loops": loops = value()
    case "-h", "--help":
        print("usage: viewhost-bench [PORT] [--idle-seconds N] [--max-connections N] [--loops N]")
        exit(0)
    default:
        guard let number = Int(argument), (1..<65536).contains(number) else { fail("bad argument '\(argument)'") }
        port = number
    }
}

// MARK: - Routes

let snapshotBytes: [UInt8] = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(ChatListViewModel.fixture) else { fail("cannot encode the snapshot") }
    return [UInt8](data)
}()
guard snapshotBytes.count == 1204 else {
    fail("the snapshot encodes to \(snapshotBytes.count) bytes, expected the peers' 1204")
}

let jsonHeaders: HTTPHeaders = [.contentType: "application/json"]
let snapshotResponse = HTTPResponse(status: .ok, headers: jsonHeaders, body: .bytes(snapshotBytes))
let eventLog = EventLog()

var router = Router()
router.get("/bench/snapshot") { _, _ in snapshotResponse }
router.post("/bench/event") { request, _ in
    guard let value = try? JSONParser.parse(request.body), case .string(let type)? = value["type"],
        case .string(let text)? = value["text"]
    else {
        return HTTPResponse(status: .badRequest)
    }
    let version = eventLog.append(ClientEvent(type: type, text: text))
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("version")
    writer.integer(version)
    writer.endObject()
    return HTTPResponse(status: .ok, headers: jsonHeaders, body: .bytes(writer.bytes))
}

// MARK: - Server

var logger = Logger(label: "viewhost-bench")
logger.logLevel = .critical

var timeouts = HTTPTimeouts()
if let idleSeconds { timeouts.idle = .seconds(idleSeconds) }
let configuration = HTTPServerConfiguration(
    host: "127.0.0.1", port: port, eventLoopCount: loops, maxConnections: maxConnections, timeouts: timeouts)
let server = HTTPServer(configuration: configuration, responder: router, logger: logger)
do {
    try server.start()
} catch {
    fail("cannot listen on 127.0.0.1:\(port): \(error)")
}
print("viewhost-bench listening on 127.0.0.1:\(port) (snapshot \(snapshotBytes.count) B, idle timeout \(timeouts.idle))")
fflush(nil)  // flush all streams: stdout is a file under run.sh
await server.waitUntilStopped()
