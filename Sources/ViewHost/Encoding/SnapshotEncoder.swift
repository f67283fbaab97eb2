import Foundation
import ViewHostAPI
import ViewHostJSON
import ViewModelCore

/// Encodes a feature's view model as its snapshot document: the view model's members plus `feature` and
/// `version`, keys sorted (so equal versions are equal bytes), and each action's `href` pointing at this
/// session's events URL (an invitation action's at the session's invitations URL). Runs once per version, with ``SortedJSONEncoder`` (the bytes JSONEncoder would write, for a
/// fraction of its tens of microseconds per chat snapshot: every change of every session pays it once).
package enum SnapshotEncoder {
    private struct Envelope: Encodable {
        let feature: String
        let version: Int
        let viewModel: any ViewModel

        enum CodingKeys: String, CodingKey {
            case feature, version
        }

        func encode(to encoder: any Encoder) throws {
            try viewModel.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(feature, forKey: .feature)
            try container.encode(version, forKey: .version)
        }
    }

    /// The JSON of one snapshot, as the server serves it (for `viewhost replay`, which prints each version).
    package static func body(feature: String, version: Int, viewModel: any ViewModel, sessionID: SessionID) -> [UInt8] {
        encode(feature: feature, version: version, viewModel: viewModel, sessionID: sessionID).body
    }

    /// The snapshot as it is served; `viewer`: whose own view it is (nil: the one every other reader shares).
    static func encode(
        feature: String, version: Int, viewModel: any ViewModel, sessionID: SessionID, viewer: Viewer? = nil
    ) -> EncodedSnapshot {
        let envelope = Envelope(feature: feature, version: version, viewModel: viewModel)
        let href = "/v1/sessions/\(sessionID.rawValue)/\(feature)/events"
        var encoder = SortedJSONEncoder()
        encoder.userInfo[.actionHref] = href
        encoder.userInfo[.invitationsHref] = invitationsHref(sessionID)
        do {
            return EncodedSnapshot(version: version, body: try encoder.encode(envelope), viewer: viewer)
        } catch {
            // A type SortedJSONEncoder leaves to Foundation (a Date, say): the same bytes, the slow way.
            return EncodedSnapshot(
                version: version, body: foundationEncode(envelope, href: href, sessionID: sessionID), viewer: viewer)
        }
    }

    /// Where a session's invitation actions post: its invitations route.
    static func invitationsHref(_ sessionID: SessionID) -> String {
        "/v1/sessions/\(sessionID.rawValue)/invitations"
    }

    /// The reference encoding: `JSONEncoder` with sorted keys and unescaped slashes (what SortedJSONEncoder matches).
    static func foundationEncode(_ envelope: some Encodable, href: String, sessionID: SessionID) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[.actionHref] = href
        encoder.userInfo[.invitationsHref] = invitationsHref(sessionID)
        do {
            return Array(try encoder.encode(envelope))
        } catch {
            // A view model that cannot encode is a programming error.
            preconditionFailure("snapshot failed to encode: \(error)")
        }
    }

    /// The snapshot of `viewModel` as Foundation's JSONEncoder writes it (for tests that compare the two).
    static func foundationEncode(feature: String, version: Int, viewModel: any ViewModel, sessionID: SessionID)
        -> [UInt8]
    {
        foundationEncode(
            Envelope(feature: feature, version: version, viewModel: viewModel),
            href: "/v1/sessions/\(sessionID.rawValue)/\(feature)/events", sessionID: sessionID)
    }
}
