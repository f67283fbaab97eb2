import Foundation
import ViewHostJSON

/// A journal record as releases before ``JournalRecordFormat`` kept it: the JSON of ``SessionInput``'s synthesized
/// `Codable` shape. Read by `JSONValueDecoder`, and by `JSONDecoder` what that leaves, so a record any release wrote
/// (JSONEncoder's member order and escaped slashes, base64 events) reads the same.
extension SessionInput {
    /// The input in `data`, JSON a store kept.
    /// - Throws: `DecodingError` when it is not a stored input.
    public static func stored(_ data: Data) throws -> SessionInput {
        if let input = try? JSONValueDecoder().decode(SessionInput.self, from: [UInt8](data)) { return input }
        return try JSONDecoder().decode(SessionInput.self, from: data)
    }
}
