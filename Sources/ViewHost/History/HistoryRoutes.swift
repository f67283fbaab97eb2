import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// Every version addressable: `GET /v1/sessions/{id}/versions` (the versions held, with what made each),
/// `GET /v1/sessions/{id}/journal` (the journal export, NDJSON), and for `GET /v1/sessions/{id}/{feature}` a past
/// version (`?version=N`) and patches from the version a client holds (`If-None-Match` with
/// `Accept: application/json-patch+json`).
enum HistoryRoutes {
    /// A past version never changes: a year, immutable (RFC 8246).
    static let immutable = "private, max-age=31536000, immutable"
    /// The media type of a patch (RFC 6902).
    static let patchType = "application/json-patch+json"

    static func register(on router: inout MeteredRouter, registry: SessionRegistry, archive: SessionArchive) {
        let resolver = SessionResolver(registry: registry)
        // A member lists and exports the features it was invited to; the others are absent.
        router.on(.get, "/v1/sessions/:id/versions", session: resolver, members: .allowed) {
            request, context, session, member in
            return .deferred {
                var list = try await OffLoop.run { () throws -> VersionList in try archive.versions(of: session) }
                if let member { list = list.keeping(member.features) }
                return HTTPResponse(
                    contentType: "application/json", bytes: json(list), headers: [.cacheControl: "private, no-cache"])
            }
        }

        router.on(.get, "/v1/sessions/:id/journal", session: resolver, members: .allowed) {
            request, context, session, member in
            let now = registry.scheduler.now
            let stamp = now.formatted(.iso8601).replacingOccurrences(of: ":", with: "")
            return .response(
                HTTPResponse(
                    headers: [
                        .contentType: JournalExport.mediaType, .cacheControl: "no-store",
                        "Content-Disposition":
                            "attachment; filename=\"viewhost-\(session.id.rawValue)-\(stamp).ndjson\"",
                    ],
                    body: .stream(
                        HTTPBodyStream { body in
                            // An export in progress keeps the session from expiring.
                            session.hold()
                            defer { session.release() }
                            try await archive.export(session, to: body, at: now, features: member?.features)
                        })))
        }
    }

    // MARK: - Past versions

    /// `?version=N`: 1 to 18 digits, at least 1; nil without the parameter. (A `wait` beside it waits for nothing:
    /// a past version never changes.)
    /// - Throws: `AppError.invalidField` (400) for anything else.
    static func requestedVersion(_ request: HTTPRequest) throws(AppError) -> Int? {
        guard let text = try QueryParameter.single("version", of: request) else { return nil }
        guard let version = SequenceNumber.parse(text), version >= 1 else {
            throw .invalidField(
                "version", reason: "must be a version: 1 to 18 digits, at least 1", status: .badRequest)
        }
        return version
    }

    /// `feature`'s snapshot at `version`, as it was served (`viewer`'s own view, when not nil): `ETag: "N"` (or
    /// `"N.ID"`), immutable; `304` for `If-None-Match` with its tag.
    static func past(
        _ request: HTTPRequest, session: Session, feature: String, version: Int, viewer: Viewer? = nil,
        archive: SessionArchive
    ) -> HTTPHandlerResult {
        .deferred {
            let snapshot = try await OffLoop.run { () throws -> EncodedSnapshot in
                try archive.snapshot(of: session, feature: feature, version: version, viewer: viewer)
            }
            guard !ConditionalRequest.noneMatchFails(request, etag: snapshot.etag) else {
                var response = HTTPResponse(
                    status: .notModified, headers: [.etag: snapshot.etag, .cacheControl: immutable])
                response.notModifiedRepresentation = NotModifiedRepresentation(
                    contentType: "application/json", length: snapshot.body.count)
                return response
            }
            var response = HTTPResponse(
                contentType: "application/json", bytes: snapshot.body,
                headers: [.etag: snapshot.etag, .cacheControl: immutable])
            response.precompressedGzip = { snapshot.gzipBody }
            return response
        }
    }

    // MARK: - Patches

    /// The version a client asks for a patch from: it accepts `application/json-patch+json` and its
    /// `If-None-Match` names a version (the first entity tag that is one: `"7"`, or `"7.ID"` for the own view of
    /// `viewer`, whose id it must name: another viewer's tag is no base of this one's patch); nil when it does not
    /// ask. A bare `"7"` from a member with a view of its own is taken as its own version 7 (a client that followed
    /// the stream knows the version alone), and the patch is made between two of its own views either way.
    static func patchBase(_ request: HTTPRequest, viewer: Viewer? = nil) -> Int? {
        guard acceptsPatch(request), let header = request.headers[.ifNoneMatch] else { return nil }
        for candidate in header.fieldParts(separatedBy: UInt8(ascii: ",")) {
            var tag = Substring(candidate.trimmingOWS())
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            guard tag.count >= 3, tag.first == "\"", tag.last == "\"" else { continue }
            var opaque = tag.dropFirst().dropLast()
            if let dot = opaque.firstIndex(of: ".") {
                guard let viewer, opaque[opaque.index(after: dot)...] == viewer.participant else { continue }
                opaque = opaque[..<dot]
            }
            guard let version = SequenceNumber.parse(String(opaque)) else { continue }
            return version
        }
        return nil
    }

    /// Whether `Accept` lists `application/json-patch+json` (with a quality above 0).
    static func acceptsPatch(_ request: HTTPRequest) -> Bool {
        for value in request.headers.values(for: .accept) {
            for range in value.fieldParts(separatedBy: UInt8(ascii: ",")) {
                let parts = range.fieldParts(separatedBy: UInt8(ascii: ";")).map { $0.trimmingOWS().lowercased() }
                guard parts.first == patchType else { continue }
                let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                if quality > 0 { return true }
            }
        }
        return false
    }

    /// The answer to a client that holds version `base` of `current`'s feature and reads patches: the patch from
    /// `base` (`application/json-patch+json`, `ETag` the new version), or the whole snapshot when `base` is no
    /// longer held (or newer) or the patch would not be smaller. Either way `current` is kept for the patch the
    /// client asks for next. `viewer`: whose own view both are (nil: the shared one).
    static func patched(
        from base: Int, to current: EncodedSnapshot, session: Session, feature: String, viewer: Viewer? = nil,
        archive: SessionArchive
    ) async -> HTTPResponse {
        archive.snapshots.keep(current, session: session.id, feature: feature)
        var whole = SnapshotRoutes.response(for: current)
        whole.headers.add(.vary, "Accept")
        guard base < current.version else { return whole }
        // Most often the version a client holds is the one it was sent last, still cached: no hop off the loop.
        var held = archive.snapshots.snapshot(session: session.id, feature: feature, version: base, viewer: viewer)
        if held == nil {
            held = try? await OffLoop.run { () throws -> EncodedSnapshot in
                try archive.snapshot(of: session, feature: feature, version: base, viewer: viewer)
            }
        }
        guard let held, let patch = current.patch(from: held), patch.count < current.body.count else { return whole }
        return HTTPResponse(
            contentType: patchType, bytes: patch,
            headers: [.etag: current.etag, .cacheControl: "private, no-cache", .vary: "Accept"])
    }

    // MARK: - Writing

    /// `{"features":{"chat":{"latest":9,"oldest":3}},"versions":[{"cause":{…},"feature":"chat","record":7,"version":4},…]}`:
    /// each version with the log entry of the event that made it (as `/log` writes entries).
    private static func json(_ list: VersionList) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("features")
        writer.beginObject()
        for (feature, latest) in list.latest.sorted(by: { $0.key < $1.key }) {
            writer.key(feature)
            writer.beginObject()
            writer.key("latest")
            writer.integer(latest)
            writer.key("oldest")
            writer.integer(list.oldest[feature] ?? latest)
            writer.endObject()
        }
        writer.endObject()
        writer.key("versions")
        writer.beginArray()
        for entry in list.versions {
            writer.beginObject()
            writer.key("cause")
            LogRoutes.write(entry.cause, to: &writer)
            writer.key("feature")
            writer.string(entry.feature)
            writer.key("record")
            writer.integer(entry.record)
            writer.key("version")
            writer.integer(entry.version)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
