// The offline gazetteer's numbers for BENCHMARKS.md: blob size, resident-memory growth, load time and lookup
// latency (median, p99) over a few thousand mixed queries. Build in release:
//
//   swift build -c release --product gazetteer-bench && .build/release/gazetteer-bench [rounds]
import Foundation
import WeatherFeature

/// Resident set size in bytes, from /proc/self/statm (Linux); 0 elsewhere.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Resident anonymous (heap) and file-backed (the binary's pages, the blob among them) bytes, from
/// /proc/self/status (Linux); zeros elsewhere.
func residentSplit() -> (anonymous: Int, file: Int) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func kib(_ field: String) -> Int {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
    return (kib("RssAnon"), kib("RssFile"))
}

/// The resident bytes of the read-only mapping that holds the embedded blob (the binary's `.rodata`, which the
/// blob dominates), from /proc/self/smaps (Linux); 0 elsewhere.
func residentBlobMapping() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return 0 }
    let address = Gazetteer.shared.startAddress
    var inside = false
    for line in text.split(separator: "\n") {
        if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
            let low = UInt(line[..<dash], radix: 16), let high = UInt(line[line.index(after: dash)..<space], radix: 16)
        {
            inside = (low..<high).contains(address)
        } else if inside, line.hasPrefix("Rss:") {
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
    }
    return 0
}

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5
let clock = ContinuousClock()
_ = residentBytes()
let rssBefore = residentBytes()
let splitBefore = residentSplit()
let loadStart = clock.now
let gazetteer = Gazetteer.shared
let loadTime = clock.now - loadStart
let rssAfterLoad = residentBytes()
let splitAfterLoad = residentSplit()
let blobAfterLoad = residentBlobMapping()
let firstStart = clock.now
let firstMatch = gazetteer.places(matching: "McGaheysville, VA").first?.displayName ?? "none"
let firstLookup = clock.now - firstStart

// Mixed queries: the required places, qualified and unqualified names, accents, misses.
var queries = [
    "McGaheysville, VA", "Richmond, VA", "Paris", "Tallinn, Estonia", "tallinn, ESTONIA", "São Paulo", "Sao Paulo",
    "Springfield", "Springfield, IL", "Paris, TX", "Richmond, CA", "New York", "Richmond VA", "Xyzzy", "",
    "Zzzzzz, Nowhere", "St. Louis", "Saint Petersburg, Russia", "Köln", "Washington, DC",
]
// Every n-th place, alternately by bare name, display name and upper-cased name (deterministic).
let step = max(1, gazetteer.placeCount / 4000)
for (turn, index) in stride(from: 0, to: gazetteer.placeCount, by: step).enumerated() {
    let place = gazetteer.place(at: index)
    queries.append([place.name, place.displayName, place.name.uppercased()][turn % 3])
}
let warm = queries.reduce(0) { $0 + gazetteer.places(matching: $1).count }
let rssAfterWarm = residentBytes()
let splitAfterWarm = residentSplit()
let blobAfterWarm = residentBlobMapping()

var samples: [Double] = []
samples.reserveCapacity(queries.count * rounds)
var found = 0
for _ in 0..<rounds {
    for query in queries {
        let start = clock.now
        found &+= gazetteer.places(matching: query).count
        samples.append(nanoseconds(clock.now - start))
    }
}
samples.sort()
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}
let rssAfterLookups = residentBytes()

print(
    "gazetteer blob:      \(gazetteer.size) bytes (\(gazetteer.placeCount) place records, \(gazetteer.keyCount) keys)")
print("load (header check): \(String(format: "%.1f", nanoseconds(loadTime) / 1000)) µs")
print("first lookup (cold): \(String(format: "%.1f", nanoseconds(firstLookup) / 1000)) µs (\(firstMatch))")
print(
    "blob mapping RSS:    \(blobAfterLoad / 1024) KiB after load, "
        + "\(blobAfterWarm / 1024) KiB after \(queries.count) queries (of a \(gazetteer.size / 1024) KiB blob)")
print(
    "file-backed RSS:     +\((splitAfterLoad.file - splitBefore.file) / 1024) KiB after load, "
        + "+\((splitAfterWarm.file - splitBefore.file) / 1024) KiB after \(queries.count) queries (blob, code and ICU pages)"
)
print(
    "anonymous RSS:       +\((splitAfterLoad.anonymous - splitBefore.anonymous) / 1024) KiB after load, "
        + "+\((splitAfterWarm.anonymous - splitBefore.anonymous) / 1024) KiB after \(queries.count) queries (heap)")
print("RSS after load:      +\((rssAfterLoad - rssBefore) / 1024) KiB")
print("RSS after 1 pass:    +\((rssAfterWarm - rssBefore) / 1024) KiB (\(queries.count) queries, \(warm) matches)")
print("RSS after lookups:   +\((rssAfterLookups - rssBefore) / 1024) KiB")
print(
    "lookup:              median \(String(format: "%.2f", percentile(samples, 0.5) / 1000)) µs, "
        + "p99 \(String(format: "%.2f", percentile(samples, 0.99) / 1000)) µs, "
        + "max \(String(format: "%.1f", samples.last! / 1000)) µs over \(samples.count) lookups (\(found) matches)")
