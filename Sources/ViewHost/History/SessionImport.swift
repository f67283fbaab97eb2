import Foundation
import HTTPCore
import ViewModelCore

/// `POST /v1/sessions` with `Content-Type: application/x-ndjson`: a journal export becomes a new session whose
/// versions and snapshots are the exported ones (``SessionRegistry/importSession(_:)``). The export is read and
/// replayed whole before anything is kept: a line that does not read, apply or agree with the replay gets a `422`
/// naming it, and nothing changes. Its size is bounded by `limits.maxBodyBytes` (`413` beyond).
enum SessionImport {
    /// Whether the request posts an export (its media type is `application/x-ndjson`).
    static func isImport(_ request: HTTPRequest) -> Bool {
        guard let type = request.headers[.contentType] else { return false }
        let essence = type.fieldParts(separatedBy: UInt8(ascii: ";")).first?.trimmingOWS().lowercased()
        return essence == JournalExport.mediaType
    }

    /// Reads the export off the event loop, makes the session and answers `201` once it is stored.
    static func handle(_ request: HTTPRequest, registry: SessionRegistry) -> HTTPHandlerResult {
        let body = request.body
        let types = registry.features.types
        let now = registry.scheduler.now
        return .deferred {
            let imported: ImportedJournal
            do {
                imported = try await OffLoop.run { () throws -> ImportedJournal in
                    try JournalImport.read(body, types: types, now: now)
                }
            } catch let error as JournalImportError {
                throw AppError.journalRejected(error)
            }
            let created = try registry.importSession(imported)
            if let durable = created.durable {
                do throws(SessionError) {
                    try await durable.value()
                } catch {
                    registry.store.drop(created.session)
                    created.session.close(.unavailable)
                    registry.storage?.remove(created.session.id, expiredAt: nil) { _ in }
                    throw AppError.storageUnavailable
                }
                // Its creation and every record are in the store: this copy may leave memory when idle.
                created.session.markStored()
            }
            return SessionRoutes.createdResponse(created, registry: registry)
        }
    }
}
