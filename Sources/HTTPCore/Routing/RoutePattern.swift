/// A path pattern such as `/v1/sessions/:id/:feature/events`: literal segments, `:name` parameters that match
/// one non-empty segment, and a final `*` that matches the rest of the path.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal([UInt8])
        case parameter(String)
        case rest
    }

    let segments: [Segment]
    /// How many of its segments are literal: of two patterns that match a path, the one with more names the
    /// resource (`/sessions/:id/contacts` rather than `/sessions/:id/:feature`).
    let literalCount: Int
    /// The pattern as written, such as `/sessions/:id/events`; metrics and logs name a route by it.
    public let description: String

    /// Parses a pattern.
    /// - Parameter pattern: Starts with `/`; segments are separated by `/`.
    public init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "a route pattern starts with /")
        description = pattern
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var segments: [Segment] = []
        for (index, part) in parts.enumerated() {
            if part == "*" {
                precondition(index == parts.count - 1, "* must be the last segment")
                segments.append(.rest)
            } else if part.hasPrefix(":") {
                segments.append(.parameter(String(part.dropFirst())))
            } else {
                segments.append(.literal(Array(part.utf8)))
            }
        }
        self.segments = segments
        literalCount = segments.count { if case .literal = $0 { true } else { false } }
    }

    /// Matches a raw (percent-encoded) path.
    /// - Parameters:
    ///   - path: The path bytes, starting with `/`.
    ///   - parameters: Receives the captured, decoded values on a match; a final `*` is captured as `"*"`.
    /// - Returns: Whether the path matches.
    func match(_ path: UnsafeRawBufferPointer, parameters: inout RouteParameters) -> Bool {
        guard path.first == UInt8(ascii: "/") else { return false }
        var position = 1  // the start of the current segment
        var captured: [(String, Range<Int>)] = []
        for segment in segments {
            if case .rest = segment {
                captured.append(("*", min(position, path.count)..<path.count))
                return appendCaptured(captured, path, to: &parameters)
            }
            guard position <= path.count else { return false }
            var end = position
            while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
            switch segment {
            case .literal(let literal):
                guard end - position == literal.count,
                    literal.withUnsafeBytes({ $0.elementsEqual(path[position..<end]) })
                else { return false }
            case .parameter(let name):
                guard end > position else { return false }
                captured.append((name, position..<end))
            case .rest:
                break
            }
            position = end + 1
        }
        return position == path.count + 1 && appendCaptured(captured, path, to: &parameters)
    }

    private func appendCaptured(
        _ captured: [(String, Range<Int>)], _ path: UnsafeRawBufferPointer, to parameters: inout RouteParameters
    ) -> Bool {
        for (name, range) in captured {
            let text = String(decoding: path[range], as: UTF8.self)
            // Most segments (ids, feature names) hold no escape: then the text is the value, not copied again.
            guard path[range].contains(UInt8(ascii: "%")) else {
                parameters.append(name: name, value: text)
                continue
            }
            guard let value = PercentDecoding.decode(text) else { return false }
            parameters.append(name: name, value: value)
        }
        return true
    }
}
