/// Makes alike, in what the README shows and in what a run prints, what differs on every run: dates and times,
/// generated request ids, session ids and tokens, the synthetic weather, how long a long poll took, the lines of a
/// server's log that measure, and what follows from the simulated chat partner's random replies: their texts and
/// number, and with them the chat's versions, the session's sequence numbers, the log's size and how many snapshot
/// reads the waits made. Versions and sequence numbers are renumbered in the order they first appear, not erased, so
/// an entry's `causedBy` must still name the entry the README's names, and a long poll must still see the version
/// move on. One value normalises one transcript (the README's, or a run's), command after command.
struct ReadmeOutputNormalisation {
    private var sequenceNumbers = Renumbering(name: "seq")
    private var chatVersions = Renumbering(name: "chat version")

    /// `lines`, printed by `command`, made alike.
    mutating func normalised(_ lines: [String], of command: String) -> [String] {
        var result: [String] = []
        for line in lines {
            var line = Self.erasingRunDetails(line)
            if command.contains("--compressed") { line = line.replacing(#/^Content-Length: \d+$/#, with: "Content-Length: «bytes»") }
            for pattern in [#/^id: (\d+)$/#, #/^(\d+) (?:client|view|timer|simulator|provider) /#, #/causedBy (\d+)/#, #/^X-Log-Latest-Seq: (\d+)$/#] {
                line = sequenceNumbers.renumbering(line, at: pattern)
            }
            for pattern in [#/^version (\d+)$/#, #/^(?:200|304) "(\d+)"/#] {
                line = chatVersions.renumbering(line, at: pattern)
            }
            // However many replies the chat partner gave, they show as one.
            if line == "other - «reply»" && result.last == line { continue }
            result.append(line)
        }
        // Prometheus text comes in no fixed order.
        return command.contains("/metrics") ? result.sorted() : result
    }

    private static func erasingRunDetails(_ line: String) -> String {
        line.replacing(#/^Date: .*$/#, with: "Date: «date»")
            .replacing(#/(X-Request-Id: |request-id=)[0-9a-z]{15}\b/#) { "\($0.1)«request-id»" }
            .replacing(#/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/#, with: "«time»")
            .replacing(#/\d\d-\d\d-\d{4} \d\d:\d\d/#, with: "«time»")
            .replacing(#/\b[0-9a-z]{52}\b/#, with: "«token»")
            // A session's cookies are named after it (`_` joins them: no word boundary before the id).
            .replacing(#/(viewhost_(?:session|held)_)[0-9a-z]{26}\b/#) { "\($0.1)«id»" }
            .replacing(#/\b[0-9a-z]{26}\b/#, with: "«id»")
            // A `cut` line ends in the middle of an id.
            .replacing(#/\/v1\/sessions\/[0-9a-z]+/#, with: "/v1/sessions/«id»")
            .replacing(#/"(date|forecastSummary|icon|observedAt|summary)":"[^"]*"/#) { "\"\($0.1)\":\"«weather»\"" }
            .replacing(#/icon=\S+ temp=\S+/#, with: "icon=«weather» temp=«weather»")
            .replacing(#/ after [0-9.]+s$/#, with: " after «seconds»s")
            .replacing(#/^other - (?!Hi, you're here too\?$).*$/#, with: "other - «reply»")
            .replacing(#/^\d+ bytes without gzip$/#, with: "«bytes» bytes without gzip")
            .replacing(#/^(viewhost_http_requests_total\{route="\/v1\/sessions\/:id\/:feature",method="GET",status="200"\}) \d+$/#) {
                "\($0.1) «count»"
            }
            .replacing(#/duration-ms=[0-9.]+/#, with: "duration-ms=«ms»")
            .replacing(#/serial [0-9A-F]+/#, with: "serial «serial»")
    }
}

/// Numbers replaced by the order they first appeared in: `«seq 1»`, `«seq 2»`, and the same number by the same name.
private struct Renumbering {
    let name: String
    private var seen: [Substring: Int] = [:]

    init(name: String) {
        self.name = name
    }

    /// `line` with the number `pattern` captures, if it matches, renumbered.
    mutating func renumbering(_ line: String, at pattern: Regex<(Substring, Substring)>) -> String {
        guard let match = line.firstMatch(of: pattern) else { return line }
        let number = match.output.1
        let order = seen[number] ?? seen.count + 1
        seen[number] = order
        var renumbered = line
        renumbered.replaceSubrange(number.startIndex..<number.endIndex, with: "«\(name) \(order)»")
        return renumbered
    }
}
