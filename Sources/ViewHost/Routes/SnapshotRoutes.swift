import Foundation
import HTTPCore
import ViewHostAPI
import ViewHostLocking
import ViewModelCore

/// `GET /v1/sessions/{id}/{feature}`: the newest snapshot's cached bytes, `ETag`/`If-None-Match` → `304`, and
/// long poll with `?wait=SECONDS` (API.md "Snapshots (read)"); a past version with `?version=N`, and a patch from
/// the version the client holds when it accepts one (``HistoryRoutes``). A member reads its own view of a feature
/// whose snapshot depends on its viewer (its credential says who it is), with an `ETag` of its own.
enum SnapshotRoutes {
    static let maxWait = 60.0

    static func register(on router: inout MeteredRouter, registry: SessionRegistry, archive: SessionArchive) {
        let resolver = SessionResolver(registry: registry)
        router.on(.get, "/v1/sessions/:id/:feature", session: resolver, members: .invitedFeature) {
            request, context, session, member in
            let feature = context.parameters["feature"] ?? ""
            guard session.featureNames.contains(feature) else {
                throw AppError.featureNotFound(feature, available: session.featureNames)
            }
            let viewer = registry.features.ownViewer(of: feature, for: member)
            if let version = try HistoryRoutes.requestedVersion(request) {
                return HistoryRoutes.past(
                    request, session: session, feature: feature, version: version, viewer: viewer, archive: archive)
            }
            let wait = try waitDuration(request)
            let reply = Reply(request: request, feature: feature, viewer: viewer, wait: wait, archive: archive)
            switch encodedSnapshot(of: session, feature: feature, viewer: viewer) {
            case .ready(_, _, let snapshot):
                return reply.answer(with: snapshot, session: session)
            case .missing:
                throw AppError.featureNotFound(feature, available: session.featureNames)
            case .pending:
                // Writes to this session follow each other, and the next one moved the state on before anybody
                // read the newest durable version: it is served once it can be made (after one commit at most),
                // never refused because writes are moving.
                return .deferred {
                    if let snapshot = try await readableSnapshot(of: session, feature: feature, viewer: viewer) {
                        return try await reply.answer(with: snapshot, session: session).response()
                    }
                    // This copy was dropped meanwhile (the store could not keep a newer write): the snapshot is made
                    // from the durable value, loaded again and read before any other request can reach it (or the
                    // request goes to the node that owns the session now).
                    let read = Locked<Representation<EncodedSnapshot>?>(nil)
                    let reload = registry.reloading(session, for: request) { loaded in
                        read.withLock { $0 = encodedSnapshot(of: loaded, feature: feature, viewer: viewer) }
                    }
                    return try await resolver.reach(.load(reload), for: request, context: context) { live in
                        let representation =
                            read.withLock { $0 } ?? encodedSnapshot(of: live, feature: feature, viewer: viewer)
                        guard let snapshot = representation.ready?.value else {
                            throw AppError.featureNotFound(feature, available: live.featureNames)
                        }
                        return try await reply.answer(with: snapshot, session: live).response()
                    }
                }
            }
        }
    }

    /// What a read of `feature` asked for: the answer to it once the snapshot to serve is known.
    private struct Reply {
        let request: HTTPRequest
        let feature: String
        /// Whose own view is read (nil: the one every other reader shares).
        let viewer: Viewer?
        /// `?wait=`: a long poll.
        let wait: Duration?
        let archive: SessionArchive
        /// The version the client holds, when it accepts a patch from it.
        var patchBase: Int? { HistoryRoutes.patchBase(request, viewer: viewer) }

        /// `200` with `snapshot` (or the patch to it from the version the client holds), or `304` when
        /// `If-None-Match` has it (after waiting for a newer version up to `wait`).
        func answer(with snapshot: EncodedSnapshot, session: Session) -> HTTPHandlerResult {
            guard ConditionalRequest.noneMatchFails(request, etag: snapshot.etag) else {
                return changed(to: snapshot, session: session)
            }
            guard let wait else { return .response(notModified(snapshot)) }
            return .deferred {
                let newer = await session.waitForVersion(of: feature, after: snapshot.version, timeout: wait)
                guard newer != nil,
                    let latest = encodedSnapshot(of: session, feature: feature, viewer: viewer).ready?.value,
                    !ConditionalRequest.noneMatchFails(request, etag: latest.etag)
                else { return notModified(snapshot) }
                return try await changed(to: latest, session: session).response()
            }
        }

        /// `snapshot` whole, or the patch to it from the version the client holds.
        private func changed(to snapshot: EncodedSnapshot, session: Session) -> HTTPHandlerResult {
            guard let patchBase else { return .response(response(for: snapshot)) }
            return .deferred {
                await HistoryRoutes.patched(
                    from: patchBase, to: snapshot, session: session, feature: feature, viewer: viewer, archive: archive)
            }
        }
    }

    /// The newest durable snapshot of `feature` once it can be made; nil when this copy was dropped meanwhile (the
    /// store could not keep a newer write), and the durable value must be loaded again.
    private static func readableSnapshot(of session: Session, feature: String, viewer: Viewer?) async throws
        -> EncodedSnapshot?
    {
        let representation: Representation<EncodedSnapshot>
        do throws(SessionError) {
            representation = try await session.waitForRepresentation(
                of: feature, for: viewer ?? .owner, make: encoder(session, feature, viewer))
        } catch {
            switch AppError(error, batch: false) {
            case .sessionUnavailable, .storageUnavailable: return nil
            case let other: throw other
            }
        }
        guard let snapshot = representation.ready?.value else {
            throw AppError.featureNotFound(feature, available: session.featureNames)
        }
        return snapshot
    }

    /// The newest durable snapshot of `feature`, encoded at most once per version; `viewer`'s own view when it has
    /// one (`HostedFeatures.ownViewer(of:for:)`), encoded for each read (the session keeps no member's view).
    static func encodedSnapshot(of session: Session, feature: String, viewer: Viewer? = nil)
        -> Representation<EncodedSnapshot>
    {
        session.representation(of: feature, for: viewer ?? .owner, make: encoder(session, feature, viewer))
    }

    /// Encodes a version of `feature`'s snapshot as it is served (as `viewer`'s own view, when not nil).
    private static func encoder(_ session: Session, _ feature: String, _ viewer: Viewer?) -> (Int, any ViewModel)
        -> EncodedSnapshot
    {
        { version, viewModel in
            SnapshotEncoder.encode(
                feature: feature, version: version, viewModel: viewModel, sessionID: session.id, viewer: viewer)
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
        var response = HTTPResponse(
            status: .notModified, headers: [.etag: snapshot.etag, .cacheControl: "private, no-cache"])
        response.notModifiedRepresentation = NotModifiedRepresentation(
            contentType: "application/json", length: snapshot.body.count)
        return response
    }

    /// `?wait=SECONDS`, more than 0 and at most 60.
    private static func waitDuration(_ request: HTTPRequest) throws(AppError) -> Duration? {
        guard let text = try QueryParameter.single("wait", of: request) else { return nil }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maxWait else {
            throw .invalidField(
                "wait", reason: "must be a number of seconds greater than 0 and at most 60", status: .badRequest)
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}
