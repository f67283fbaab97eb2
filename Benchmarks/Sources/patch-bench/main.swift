// What making an event stream's patches costs, per version, over a replayed session: each snapshot read for diffing
// (from scratch, and against the version before, as the server does), diffed against the version before, and the
// patch written out. Input: one feature's snapshots, one per line, as `viewhost replay EXPORT --feature F` prints
// them. Build in release:
//
//   swift build -c release --product patch-bench
//   viewhost replay chat.ndjson --feature chat | .build/release/patch-bench [rounds] [--only-patches]
//
// With `--only-patches`, only the patches are made (read against the version before, diffed, written), `rounds`
// times over, and timed: the loop to run under a profiler.
import Foundation
import ViewHostJSON

let rounds = CommandLine.arguments.count > 1 ? max(1, Int(CommandLine.arguments[1]) ?? 7) : 7
let input = FileHandle.standardInput.readDataToEndOfFile()
let snapshots = input.split(separator: UInt8(ascii: "\n")).map { Array($0) }
guard snapshots.count > 1 else {
    FileHandle.standardError.write(Data("patch-bench: give at least two snapshots, one per line, on standard input\n".utf8))
    exit(65)
}

/// Microseconds per version of `body` run over every version after the first, given the version before's text as
/// `body` made it (as the server reads each version once, right after the one before), the median of `rounds`.
func timed(_ body: (_ newer: [UInt8], _ older: IndexedJSON) throws -> IndexedJSON) throws -> Double {
    var results: [Double] = []
    for _ in 0..<rounds {
        var older = try IndexedJSON(snapshots[0])
        let clock = ContinuousClock()
        let start = clock.now
        for index in 1..<snapshots.count { older = try body(snapshots[index], older) }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        results.append(seconds * 1e6 / Double(snapshots.count - 1))
    }
    return results.sorted()[results.count / 2]
}

/// The patch from `older` to `newer` made as the server makes it: `newer` read against `older`, diffed, written.
/// Returns `newer` read, the older side of the next patch.
func patchMade(_ newer: [UInt8], _ older: IndexedJSON) throws -> IndexedJSON {
    let text = try IndexedJSON(newer, after: older)
    _ = JSONPatch.json(try JSONPatch.diff(from: older, to: text))
    return text
}

if CommandLine.arguments.dropFirst(2).first == "--only-patches" {
    let perVersion = try timed(patchMade)
    print(String(format: "patch made (read against the version before, diff, written): %.2f µs per version, median of %d rounds",
        perVersion, rounds))
    exit(0)
}

var patchBytes = 0
for index in 1..<snapshots.count {
    let before = try IndexedJSON(snapshots[index - 1])
    patchBytes += JSONPatch.json(try JSONPatch.diff(from: before, to: IndexedJSON(snapshots[index], after: before))).count
}
let fresh = try timed { newer, _ in try IndexedJSON(newer) }
let derived = try timed { newer, older in try IndexedJSON(newer, after: older) }
let whole = try timed(patchMade)
let wholeFresh = try timed { newer, older in
    let text = try IndexedJSON(newer)
    _ = JSONPatch.json(try JSONPatch.diff(from: older, to: text))
    return text
}
let bodyBytes = snapshots.dropFirst().reduce(0) { $0 + $1.count }
let versions = Double(snapshots.count - 1)
print(String(format: "versions %d, snapshot %.0f B, patch %.0f B (means); µs per version, median of %d rounds:",
    snapshots.count - 1, Double(bodyBytes) / versions, Double(patchBytes) / versions, rounds))
print(String(format: "  read from scratch %.2f, read against the version before %.2f", fresh, derived))
print(String(format: "  patch made (read against the version before, diff, written) %.2f; with the read from scratch %.2f",
    whole, wholeFresh))
