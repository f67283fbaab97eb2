/// libFuzzer target for ViewHostJSON's reader (`JSONParser`) and writer (`JSONWriter`). Run with `Fuzz/run.sh`;
/// built only when `VIEWHOST_FUZZ` is set.
///
/// The input is the JSON text. A broken invariant traps, which libFuzzer reports as a crash:
/// * a parsed value nests no deeper than the limit, and a text within the limit parses the same with a larger one;
/// * written back (strings through `JSONWriter`, numbers as Swift prints them), it parses to an equal value;
/// * a text refused is refused with an offset inside it;
/// * split at its first NUL byte into an older and a newer text (else the text and itself), the newer one read
///   against the older (`IndexedJSON(_:after:)`, which copies the older text's nodes where the bytes agree) fails
///   as it fails read alone, or diffs against the older to the same operations; with every value listed, and with
///   containers of 16 bytes or more only.
import FuzzSupport
import ViewHostJSON

@_cdecl("JSONFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzJSON)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkReadAgainstOlder(bytes)
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes, maxDepth: 8)
    } catch {
        check((0...size).contains(error.offset), "a failure offset outside the input: \(error)")
        if error.reason.contains("deep") || error.reason.contains("nest") {
            _ = try? JSONParser.parse(bytes, maxDepth: 64)
        }
        return 0
    }
    check(depth(of: value) <= 8, "a value nested deeper than the limit")
    let wider = try? JSONParser.parse(bytes, maxDepth: 64)
    check(wider == value, "a larger depth limit changed the value")
    var text: [UInt8] = []
    write(value, into: &text)
    let again: JSONValue
    do {
        again = try JSONParser.parse(text, maxDepth: 8)
    } catch {
        fatalError("the written value does not parse: \(error) in \(String(decoding: text, as: UTF8.self))")
    }
    check(again == value, "the written value parses to another value: \(String(decoding: text, as: UTF8.self))")
    return 0
}

func checkReadAgainstOlder(_ bytes: [UInt8]) {
    let split = bytes.firstIndex(of: 0)
    let olderBytes = split.map { Array(bytes[..<$0]) } ?? bytes
    let newerBytes = split.map { Array(bytes[($0 + 1)...]) } ?? bytes
    // Every value listed, and nearly every container folded (read only when a diff needs it).
    for fold in [0, 16] { checkReadAgainstOlder(olderBytes, newerBytes, foldBelow: fold) }
}

func checkReadAgainstOlder(_ olderBytes: [UInt8], _ newerBytes: [UInt8], foldBelow fold: Int) {
    guard let older = try? IndexedJSON(olderBytes, foldBelow: fold) else { return }
    let alone = Result { () throws(JSONParser.Failure) in try IndexedJSON(newerBytes, foldBelow: fold) }
    let against = Result { () throws(JSONParser.Failure) in try IndexedJSON(newerBytes, after: older, foldBelow: fold) }
    switch (alone, against) {
    case (.success(let alone), .success(let against)):
        let patches = [alone, against].map { text in
            Result { () throws(JSONParser.Failure) in try JSONPatch.diff(from: older, to: text) }
        }
        check(patches[0] == patches[1], "read against the older text, it diffs otherwise: \(patches[1]) for \(patches[0])")
    case (.failure(let alone), .failure(let against)):
        check(alone == against, "read against the older text, it fails otherwise: \(against) for \(alone)")
    default:
        fatalError("read against the older text: \(against); alone: \(alone)")
    }
}

func depth(of value: JSONValue) -> Int {
    switch value {
    case .array(let elements): 1 + (elements.map(depth(of:)).max() ?? 0)
    case .object(let members): 1 + (members.map { depth(of: $0.1) }.max() ?? 0)
    default: 0
    }
}

/// Writes `value` as JSON text: strings and names through `JSONWriter`'s quoting, numbers as Swift prints them.
func write(_ value: JSONValue, into text: inout [UInt8]) {
    switch value {
    case .null: text += "null".utf8
    case .bool(let flag): text += (flag ? "true" : "false").utf8
    case .number(let number): text += "\(number)".utf8
    case .string(let string): text += quoted(string)
    case .array(let elements):
        text.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            write(element, into: &text)
        }
        text.append(UInt8(ascii: "]"))
    case .object(let members):
        text.append(UInt8(ascii: "{"))
        for (index, (name, member)) in members.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text += quoted(name)
            text.append(UInt8(ascii: ":"))
            write(member, into: &text)
        }
        text.append(UInt8(ascii: "}"))
    }
}

func quoted(_ string: String) -> [UInt8] {
    var writer = JSONWriter()
    writer.string(string)
    return writer.bytes
}
