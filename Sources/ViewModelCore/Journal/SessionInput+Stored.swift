import Foundation
import ViewHostJSON

/// A journal record's JSON as the stores keep it. Written by ``StoredJSON`` (keys sorted, its events as base64
/// text); read by `JSONValueDecoder`, and by `JSONDecoder` what that leaves, so a record any release wrote
/// (JSONEncoder's member order and escaped slashes before this one) reads the same. Every event, replay, export and
/// import passes through here: Foundation's coders cost several times more.
extension SessionInput {
    /// The JSON a store keeps.
    /// - Throws: Never for an input the server made (its parts are plain values).
    public func storedJSON() throws -> Data {
        try StoredJSON.encode(self)
    }

    /// The input in `data`, JSON a store kept.
    /// - Throws: `DecodingError` when it is not a stored input.
    public static func stored(_ data: Data) throws -> SessionInput {
        if let input = try? JSONValueDecoder().decode(SessionInput.self, from: [UInt8](data)) { return input }
        return try JSONDecoder().decode(SessionInput.self, from: data)
    }
}
