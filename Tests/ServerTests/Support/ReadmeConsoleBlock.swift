/// One `console` block of the README: its commands (the lines after `$ `), what it shows each of them printing, and
/// where it stands.
struct ReadmeConsoleBlock {
    /// One command and the lines the README shows it printing, empty lines left out (a run's are left out too).
    struct Step {
        var command: String
        var output: [String] = []
    }

    /// The nearest heading above the block, as written (`### CORS`).
    var heading: String
    /// The line of the block's opening fence, counted from 0.
    var line: Int
    var steps: [Step] = []

    /// The block's commands, in order.
    var commands: [String] { steps.map(\.command) }
    /// Everything the block shows printed, in order.
    var output: [String] { steps.flatMap(\.output) }
}
