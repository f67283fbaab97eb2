import ChatAPI
@testable import ChatFeature
import Foundation
import Testing
import ViewHostAPI

/// `trimmingWhitespace()` and `isBlank` replace Foundation's `.whitespacesAndNewlines` trimming; they must treat
/// exactly the same characters as white space.
@Suite struct StringWhitespaceTests {
    /// Every scalar of the Basic Multilingual Plane, alone and around text: the same verdict as Foundation's.
    @Test func whiteSpaceIsExactlyFoundationsWhitespacesAndNewlines() {
        var mismatches: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(scalar)x\(scalar)"
            if text.trimmingWhitespace() != text.trimmingCharacters(in: .whitespacesAndNewlines) {
                mismatches.append(String(value, radix: 16))
            }
            let alone = String(scalar)
            if alone.isBlank != alone.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                mismatches.append("blank " + String(value, radix: 16))
            }
        }
        #expect(mismatches.isEmpty, "differs from Foundation at U+\(mismatches.prefix(20))")
    }

    @Test(arguments: ["", " ", "\n\t \r\n", "hi", "  hi  ", "\u{3000}全角\u{3000}", "a b", "\u{a0}x\u{2029}", "👋🏽 "])
    func trimmingMatchesFoundation(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.isBlank == text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
}
