import Foundation
import HTTPCore
import ViewModelCore

/// `GET /v1/sessions/{id}/{feature}`: the newest snapshot's cached bytes, `ETag`/`If-None-Match` → `304`, and
/// long poll with `?wait=SECONDS` (API.md "Snapshots (read)"); a past version with `?version=N`, and a patch from
/// the version the client holds when it accepts one (``HistoryRoutes``).
enum SnapshotRoutes {
    static let maxWait = 60.0

    static func register(on router: inout MeteredRouter, registry: SessionRegistry, archive: SessionArchive) {
        router.on(.get, "/v1/sessions/:id/:feature") { request, context in
            let session = try registry.authenticate(request, id: context.parameters["id"] ?? "")
            let feature = context.parameters["feature"] ?? ""
            guard session.featureNames.contains(feature) else {
                throw AppError.featureNotFound(feature, available: session.featureNames)
            }
            if let version = try HistoryRoutes.requestedVersion(request) {
                return HistoryRoutes.past(request, session: session, feature: feature, version: version, archive: archive)
            }
            let wait = try waitDuration(request)
            let patchBase = HistoryRoutes.patchBase(request)
            let snapshot: EncodedSnapshot
            switch encodedSnapshot(of: session, feature: feature) {
            case .ready(_, _, let ready): snapshot = ready
            case .missing: throw AppError.featureNotFound(feature, available: session.featureNames)
            case .pending:
                // A write to this session is being stored right now and nobody read the version before it: the
                // newest durable version is the one being stored, served once it is.
                return .deferred {
                    try? await session.committed()
                    guard let snapshot = encodedSnapshot(of: session, feature: feature).ready?.value else {
                        throw AppError.storageUnavailable
                    }
                    return response(for: snapshot)
                }
            }
            guard ConditionalRequest.noneMatchFails(request, etag: snapshot.etag) else {
                guard let patchBase else { return .response(response(for: snapshot)) }
                return .deferred {
                    await HistoryRoutes.patched(
                        from: patchBase, to: snapshot, session: session, feature: feature, archive: archive)
                }
            }
            guard let wait else { return .response(notModified(snapshot)) }
            return .deferred {
                let newer = await session.waitForVersion(of: feature, after: snapshot.version, timeout: wait)
                guard newer != nil, let latest = encodedSnapshot(of: session, feature: feature).ready?.value,
                    !ConditionalRequest.noneMatchFails(request, etag: latest.etag)
                else { return notModified(snapshot) }
                guard let patchBase else { return response(for: latest) }
                return await HistoryRoutes.patched(
                    from: patchBase, to: latest, session: session, feature: feature, archive: archive)
            }
        }
    }

    /// The newest durable snapshot of `feature`, encoded at most once per version.
    static func encodedSnapshot(of session: Session, feature: String) -> Representation<EncodedSnapshot> {
        session.representation(of: feature) { version, viewModel in
            SnapshotEncoder.encode(feature: feature, version: version, viewModel: viewModel, sessionID: session.id)
        }
    }

    static func response(for snapshot: EncodedSnapshot) -> HTTPResponse {
        var response = HTTPResponse(
            contentType: "application/json", bytes: snapshot.body,
            headers: [.etag: snapshot.etag, .cacheControl: "private, no-cache"])
        response.precompressedGzip = { snapshot.gzipBody }
        return response
    }

    static func notModified(_ snapshot: EncodedSnapshot) -> HTTPResponse {
        var response = HTTPResponse(status: .notModified, headers: [.etag: snapshot.etag, .cacheControl: "private, no-cache"])
        response.notModifiedRepresentation = NotModifiedRepresentation(
            contentType: "application/json", length: snapshot.body.count)
        return response
    }

    /// `?wait=SECONDS`, more than 0 and at most 60.
    private static func waitDuration(_ request: HTTPRequest) throws(AppError) -> Duration? {
        guard let text = request.queryValue("wait") else { return nil }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maxWait else {
            throw .invalidField(
                "wait", reason: "must be a number of seconds greater than 0 and at most 60", status: .badRequest)
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}
