// delivery-bench's types and pure helpers (main.swift runs the benchmark). Measurement harness, not product code.
import BenchSupport
import Foundation
import ViewHostJSON

/// Runs `HOOK PHASE` with /bin/sh and waits for it; a failing hook ends the run.
func runHook(_ hook: String?, _ phase: String) {
    guard let hook else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "\(hook) \(phase)"]
    do { try process.run() } catch { fail("hook: \(error)") }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fail("hook '\(phase)' exited \(process.terminationStatus)") }
}

/// The JSON of a body, or nil.
func json(_ bytes: [UInt8]) -> JSONValue? { try? JSONParser.parse(bytes) }

/// The string member `key` of an object, or nil.
func string(_ value: JSONValue?, _ key: String) -> String? {
    guard case .string(let text)? = value?[key] else { return nil }
    return text
}

/// Every string in a JSON value, depth first.
func strings(in value: JSONValue) -> [String] {
    switch value {
    case .string(let text): [text]
    case .array(let items): items.flatMap(strings(in:))
    case .object(let members): members.flatMap { strings(in: $0.1) }
    default: []
    }
}

/// One pair of chat sessions: A sends, B receives.
struct Pair {
    let a: (id: String, token: String)
    let b: (id: String, token: String)
    /// The name A's chat lists B by: the `contact` of A's sends.
    let nameOfB: String
}

/// Per message: the POST's write, its answer's arrival and status, the first frame on B's stream holding it.
final class Message {
    let pair: Int
    var written: Int64 = 0
    var answered: Int64 = 0
    var status = 0
    var frameArrived: Int64 = 0
    var frameRead: Int64 = 0
    init(pair: Int) { self.pair = pair }
}

/// The markers "#L<k>#" / "#T<k>#" an event's text holds, in order.
func markers(in block: ArraySlice<UInt8>) -> [String] {
    var found: [String] = []
    var index = block.startIndex
    let hash = UInt8(ascii: "#")
    while index < block.endIndex {
        if block[index] == hash, index + 2 < block.endIndex,
            block[index + 1] == UInt8(ascii: "L") || block[index + 1] == UInt8(ascii: "T")
        {
            var end = index + 2
            while end < block.endIndex, block[end] >= UInt8(ascii: "0"), block[end] <= UInt8(ascii: "9") { end += 1 }
            if end < block.endIndex, block[end] == hash, end > index + 2 {
                found.append(String(decoding: block[index...end], as: UTF8.self))
                index = end
            }
        }
        index += 1
    }
    return found
}

/// A sender's keep-alive connection: the markers of its POSTs in flight, answered in order.
final class Sender {
    let fd: Int32
    var buffer: [UInt8] = []
    var inFlight: [String] = []
    init(fd: Int32) { self.fd = fd }
}

enum Connection {
    case stream(EventStreamParser, Int)
    case sender(Sender)
}
