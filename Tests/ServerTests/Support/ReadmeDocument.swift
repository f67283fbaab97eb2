import Foundation

/// The README's `console` blocks, in order, and its headings, to pick blocks by the section they stand in.
struct ReadmeDocument {
    /// The repository's README: this file is `Tests/ServerTests/Support/ReadmeDocument.swift`.
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// Every `console` block, in order.
    let blocks: [ReadmeConsoleBlock]
    private let headings: [(line: Int, text: String)]

    /// The README as it is on disk.
    static func load() throws -> ReadmeDocument {
        ReadmeDocument(markdown: try String(contentsOf: url, encoding: .utf8))
    }

    /// Reads `markdown`: a block opens with a line `` ```console `` and ends with a line `` ``` ``; in it, a line
    /// starting `$ ` is a command and the lines after it, up to the next command, what it prints.
    init(markdown: String) {
        var blocks: [ReadmeConsoleBlock] = []
        var headings: [(line: Int, text: String)] = []
        var current: ReadmeConsoleBlock?
        var inOtherFence = false
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if var block = current {
                if line == "```" {
                    blocks.append(block)
                    current = nil
                } else if line.hasPrefix("$ ") {
                    block.steps.append(.init(command: String(line.dropFirst(2))))
                    current = block
                } else if !line.isEmpty {
                    if block.steps.isEmpty { block.steps.append(.init(command: "")) }
                    block.steps[block.steps.count - 1].output.append(line)
                    current = block
                }
            } else if inOtherFence {
                inOtherFence = line != "```"
            } else if line == "```console" {
                current = ReadmeConsoleBlock(heading: headings.last?.text ?? "", line: number)
            } else if line.hasPrefix("```") {
                inOtherFence = true
            } else if line.hasPrefix("#") {
                headings.append((number, line))
            }
        }
        self.blocks = blocks
        self.headings = headings
    }

    /// The blocks after the heading `start` and before the heading `end` (each as written, such as `## Try it`).
    func blocks(from start: String, upTo end: String) -> [ReadmeConsoleBlock] {
        guard let first = headings.first(where: { $0.text == start })?.line,
            let last = headings.first(where: { $0.text == end && $0.line > first })?.line
        else { return [] }
        return blocks.filter { $0.line > first && $0.line < last }
    }

    /// The blocks between the heading `heading` and the next heading.
    func blocks(under heading: String) -> [ReadmeConsoleBlock] {
        blocks.filter { $0.heading == heading }
    }
}
