/// libFuzzer target for reading a journal export (`JournalImport.read`), as `POST /v1/sessions` with
/// `application/x-ndjson`, `viewhost replay` and `TestHost(journal:)` read one: the header and its value, every
/// record replayed, the end line. An export is untrusted input from anyone, and its digest is an unkeyed chain
/// anyone can recompute, so the fuzzer forges it: with bit 0 of byte 0 set, the end line's `digest` is written
/// again over the mutated lines before the read, and the mutation reaches every check beyond the digest. Run with
/// `Fuzz/run.sh`; built only when `VIEWHOST_FUZZ` is set.
///
/// Input layout: byte 0 (bit 0: forge the digest), then the export. A broken invariant traps (and any trap in the
/// code under test is a crash libFuzzer saves):
/// * an export is read, or refused with a ``JournalImportError`` naming a line from 1 to one past its last, with a
///   reason;
/// * what is read is a value an import would take again: its final value passes the same checks its header's did;
/// * reading is a pure function of the bytes: the same answer twice.
import ChatFeature
import Foundation
import FuzzSupport
import LoginFeature
import PersonFeature
import ViewHostCrypto
import ViewModelCore
import WeatherFeature

@_cdecl("JournalImportFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzJournalImport)
}

/// The seed features' types, as the `viewhost` executable reads exports with.
let types = FeatureTypes(merging: [FeatureRegistration.chat, .weather, .login, .person].map(\.types))
/// The import's instant: fixed, so a run is repeatable (the corpus's exports were made before it).
let importedAt = Date(timeIntervalSince1970: 1_830_000_000)

/// `bytes` with the last line's `"digest":"…"` written again over the lines before it, as a forger would.
func forged(_ bytes: [UInt8]) -> [UInt8] {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let end = lines.indices.last else { return bytes }
    var digest: [UInt8] = []
    for line in lines[..<end] { digest = Digest.sha256(digest, line.last == 0x0D ? Array(line.dropLast()) : line) }
    let marker = Array(#""digest":""#.utf8)
    let line = lines[end]
    guard let start = line.indices.first(where: { line[$0...].starts(with: marker) }) else { return bytes }
    let valueStart = start + marker.count
    let valueEnd = line[valueStart...].firstIndex(of: UInt8(ascii: "\"")) ?? line.endIndex
    lines[end] = Array(line[..<valueStart]) + Array(Digest.hex(digest).utf8) + Array(line[valueEnd...])
    return Array(lines.joined(separator: [0x0A])) + [0x0A]
}

func read(_ bytes: [UInt8]) -> Result<ImportedJournal, JournalImportError> {
    Result { () throws(JournalImportError) in try JournalImport.read(bytes, types: types, now: importedAt) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let raw = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let bytes = data[0] & 1 == 1 ? forged(raw) : raw
    let lineCount = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
    let first = read(bytes)
    switch first {
    case .success(let imported):
        let earliest = imported.createdAt?.addingTimeInterval(-JournalImport.allowedClockSkew) ?? .distantPast
        let times = earliest...importedAt.addingTimeInterval(JournalImport.allowedClockSkew)
        let problem = imported.final.problem(times: times)
        check(problem == nil, "read into a value an import refuses: \(problem.map(String.init(describing:)) ?? "")")
    case .failure(let error):
        check((1...max(1, lineCount + 1)).contains(error.line), "refused naming line \(error.line) of \(lineCount)")
        check(!error.reason.isEmpty, "refused without a reason")
    }
    switch (first, read(bytes)) {
    case (.success(let a), .success(let b)): check(a.final.sequence == b.final.sequence && a.lastNumber == b.lastNumber, "read differently twice")
    case (.failure(let a), .failure(let b)): check(a == b, "refused differently twice")
    default: fatalError("read once, refused once")
    }
    return 0
}
