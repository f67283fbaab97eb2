import Foundation

/// Why an export could not be read: the line, and what is wrong with it.
public struct JournalImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line (1 is the header).
    public let line: Int
    /// What is wrong.
    public let reason: String

    /// Creates an error.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// The line number and the reason, as the `422` detail and the command's message say them.
    public var description: String { "line \(line): \(reason)" }

    /// A decoding error in a sentence: where and what.
    static func describe(_ error: any Error) -> String {
        if let error = error as? StoredFeatureError { return error.summary }
        guard let error = error as? DecodingError else { return "\(error)" }
        let (context, what): (DecodingError.Context, String) =
            switch error {
            case .keyNotFound(let key, let context): (context, "'\(key.stringValue)' is missing")
            case .typeMismatch(_, let context): (context, "a value has the wrong type")
            case .valueNotFound(_, let context): (context, "a value is missing")
            case .dataCorrupted(let context): (context, context.debugDescription)
            @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "\(error)")
            }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? what : "\(what) at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
    }
}
