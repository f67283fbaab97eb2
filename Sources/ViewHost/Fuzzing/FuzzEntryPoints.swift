import HTTPCore
import ViewHostJSON
import ViewModelCore

/// What the fuzzers in `Fuzz/` call in the ViewHost library: the request-reading steps of the routes, without a session or a
/// socket. Plumbing for `Fuzz/run.sh`, not a designed API; each entry point runs exactly the code a route runs.
package enum FuzzEntryPoints {
    /// The events routes of `features`, hosted at their default settings (decoding never reaches a provider).
    package struct EventDecoding: Sendable {
        private let features: HostedFeatures

        /// The decoding of `registrations`' events.
        package init(_ registrations: [FeatureRegistration]) {
            do {
                features = try HostedFeatures(registrations, settings: FixedFeatureSettings())
            } catch {
                preconditionFailure("the fuzzed features cannot be hosted: \(error)")
            }
        }

        /// The names of the features an events route can be posted to.
        package var featureNames: [String] { features.names }

        /// Reads `request`'s body as `POST /v1/sessions/{id}/{feature}/events` does: media type, JSON, the event
        /// objects, then the feature's decoding of each event, applying nothing.
        /// - Returns: The number of events decoded, or the refusal's status and problem detail.
        package func decodeEvents(_ request: HTTPRequest, feature index: Int) -> Result<Int, Refused> {
            let definition = features.definitions[index % features.definitions.count]
            do throws(AppError) {
                let objects = try EventRoutes.eventObjects(RequestBody.json(request))
                return .success(try definition.decode(objects))
            } catch {
                return .failure(Refused(error))
            }
        }
    }

    /// The request's `Last-Event-ID` as the stream route reads it.
    package static func lastEventID(_ request: HTTPRequest) -> Result<Int, Refused> {
        do throws(AppError) {
            return .success(try StreamRoutes.lastEventID(request))
        } catch {
            return .failure(Refused(error))
        }
    }

    /// The request's `Idempotency-Key` as the events route reads it.
    package static func idempotencyKey(_ request: HTTPRequest) -> Result<String?, Refused> {
        do throws(AppError) {
            return .success(try EventRoutes.idempotencyKey(request))
        } catch {
            return .failure(Refused(error))
        }
    }

    /// Whether `If-None-Match` matches `etag` (a `304`).
    package static func noneMatchFails(_ request: HTTPRequest, etag: String) -> Bool {
        ConditionalRequest.noneMatchFails(request, etag: etag)
    }

    /// The token for session `session` from `Authorization: Bearer` or the session's cookie (its own, else the
    /// single cookie of earlier releases).
    package static func token(_ request: HTTPRequest, session: String = "s") -> String? {
        SessionRegistry.token(of: request, session: session)
    }

    /// Whether the body counts as JSON by its `Content-Type`.
    package static func isJSON(_ request: HTTPRequest) -> Bool {
        RequestBody.isJSON(request)
    }

    /// A refusal as a client sees it: the status and the problem document's detail.
    package struct Refused: Error {
        /// The status code the refusal answers with.
        package let status: Int
        /// The problem document's `detail` ("" when it has none).
        package let detail: String

        init(_ error: AppError) {
            status = error.status.code
            detail = error.problem.detail ?? ""
        }
    }
}
