import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// `GET /v1/sessions/{id}/log?since=SEQ`: the session's data-flow log after `since`, oldest first: why each
/// snapshot changed, which event caused which (API.md, "the data-flow log"). A shared session's invitations, joins
/// and removals are entries of ``Participation/feature`` with version 0, the owner's to read: a member reads only the
/// entries of the features it was invited to.
enum LogRoutes {
    /// `2026-11-23T14:00:00.500Z`.
    private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func register(on router: inout MeteredRouter, registry: SessionRegistry) {
        let resolver = SessionResolver(registry: registry)
        // A member reads the entries of the features it was invited to; the others' are absent.
        router.on(.get, "/v1/sessions/:id/log", session: resolver, members: .allowed) {
            request, context, session, member in
            var since = 0
            if let text = try QueryParameter.single("since", of: request) {
                guard let value = SequenceNumber.parse(text) else {
                    throw AppError.invalidField(
                        "since", reason: "must be a sequence number: 1 to 18 digits (0 to 999999999999999999)",
                        status: .badRequest)
                }
                since = value
            }
            var (entries, oldest) = session.log(after: since)
            if let member { entries.removeAll { !member.features.contains($0.feature) } }
            var writer = JSONWriter()
            writer.beginArray()
            for entry in entries { write(entry, to: &writer) }
            writer.endArray()
            var headers: HTTPHeaders = [.cacheControl: "private, no-cache"]
            headers.add("X-Log-Latest-Seq", String(session.sequence))
            if let oldest { headers.add("X-Log-Oldest-Seq", String(oldest)) }
            return .response(HTTPResponse(contentType: "application/json", bytes: writer.bytes, headers: headers))
        }
    }

    /// One entry as the log serves it (also what made a version, in `/versions`).
    static func write(_ entry: LogEntry, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("at")
        // RFC 3339 with milliseconds and `Z` (the style used to end in the seconds, without a zone).
        writer.string(entry.at.formatted(Self.timestamp))
        writer.key("causedBy")
        if let causedBy = entry.causedBy { writer.integer(causedBy) } else { writer.null() }
        writer.key("event")
        writer.string(entry.event)
        writer.key("feature")
        writer.string(entry.feature)
        writer.key("seq")
        writer.integer(entry.seq)
        writer.key("source")
        writer.string(entry.source.rawValue)
        writer.key("summary")
        writer.string(entry.summary)
        writer.key("versionAfter")
        writer.integer(entry.versionAfter)
        writer.endObject()
    }
}
