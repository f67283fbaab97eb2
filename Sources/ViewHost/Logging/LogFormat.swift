/// How log lines are written (`--log-format`, config `log.format`).
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// `2026-11-24T18:20:36.123Z info viewhost: message key=value …`, for people.
    case text
    /// One JSON object per line (`{"time":…,"level":…,"logger":…,"message":…,…metadata}`), for log collectors.
    case json
}
