import Foundation
import ViewHostCrypto

/// A journal export edited the way anyone can edit one: its lines changed, then the end line's `digest` written
/// again over them (an unkeyed SHA-256 chain, docs/JOURNAL-EXPORT.md), so the digest no longer refuses the change
/// and only what an import checks beyond it can.
public enum ForgedExport {
    /// `export` with `edit` applied to its lines (the header first, the end line last, without newlines), and its
    /// end line's digest made to match.
    public static func forge(_ export: [UInt8], _ edit: (inout [String]) -> Void) -> [UInt8] {
        var lines = String(decoding: export, as: UTF8.self).split(separator: "\n").map(String.init)
        edit(&lines)
        guard let end = lines.indices.last else { return [] }
        var digest: [UInt8] = []
        for line in lines[..<end] { digest = Digest.sha256(digest, Array(line.utf8)) }
        lines[end] = lines[end].replacingOccurrences(
            of: #""digest":"[0-9a-f]*""#, with: "\"digest\":\"\(Digest.hex(digest))\"", options: .regularExpression)
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `export` with the first match of `pattern` (a regular expression) in line `line` (1 is the header) replaced
    /// by `replacement`, forged as ``forge(_:_:)`` forges.
    public static func replacing(_ pattern: String, with replacement: String, inLine line: Int, of export: [UInt8])
        -> [UInt8]
    {
        forge(export) { lines in
            guard lines.indices.contains(line - 1),
                let range = lines[line - 1].range(of: pattern, options: .regularExpression)
            else { return }
            lines[line - 1].replaceSubrange(range, with: replacement)
        }
    }
}
