import Foundation
import ViewModelCore

/// Encodes a feature's view model as its snapshot document: the view model's members plus `feature` and
/// `version`, keys sorted (so equal versions are equal bytes), and each action's `href` pointing at this
/// session's events URL. Runs once per version (JSONEncoder costs tens of microseconds for a chat snapshot, which
/// is fine once per change and ruinous per request).
enum SnapshotEncoder {
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

    static func encode(feature: String, version: Int, viewModel: any ViewModel, sessionID: SessionID) -> EncodedSnapshot {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[.actionHref] = "/v1/sessions/\(sessionID.rawValue)/\(feature)/events"
        do {
            let data = try encoder.encode(Envelope(feature: feature, version: version, viewModel: viewModel))
            return EncodedSnapshot(version: version, body: Array(data))
        } catch {
            // A view model that cannot encode is a programming error; answer with what is certain.
            preconditionFailure("snapshot of \(feature) v\(version) failed to encode: \(error)")
        }
    }
}
