/// Actions made from intent values: the body is what the intent's own `Encodable` writes, so the event and its
/// fields are named where the intent names them, once.
extension ActionDescriptor {
    /// The action that posts `intent` as it is.
    ///
    /// ```swift
    /// ActionDescriptor(TodoIntent.toggle(item: item.id))      // {"type":"toggle","item":"t1"}
    /// ```
    /// - Parameters:
    ///   - intent: The intent to post; its encoding must be a flat object (strings, numbers, booleans, nulls), as
    ///     every intent's is (a nested value is a programming error, stopped at the first snapshot that makes it).
    ///   - enabled: Whether it may run now (nil: always).
    ///   - prompt: A prompt for user input.
    public init<Intent: FeatureIntent>(_ intent: Intent, enabled: Bool? = nil, prompt: ActionPrompt? = nil) {
        let (event, fields) = Self.body(of: intent)
        self.init(event: event, fields: fields, enabled: enabled, prompt: prompt)
    }

    /// The action that posts the intent `intent` builds from what the person fills in: each parameter of the
    /// closure is a placeholder, named by the intent's field it lands in and typed by the parameter's type.
    ///
    /// ```swift
    /// ActionDescriptor(prompt: ActionPrompt(title: "Rename", submit: "Rename")) { (title: String) in
    ///     TodoIntent.edit(item: item.id, title: title)
    /// }                                                       // {"type":"edit","item":"t1","title":"{title}"}
    /// ActionDescriptor { (text: String, column: Column) in RetroIntent.addCard(text: text, column: column) }
    ///                                                         // "inputs":{"column":{"type":"string","enum":[…]}}
    /// ```
    ///
    /// The closure only builds the intent: it is called a few times, with two distinct probe values of each input
    /// type (``ActionInputValue/probes``), and a field whose value follows an input is that input's placeholder. An
    /// input the intent does not write anywhere makes no placeholder.
    /// - Parameters:
    ///   - enabled: Whether it may run now (nil: always).
    ///   - prompt: A prompt for user input.
    ///   - intent: Builds the intent from the inputs.
    public init<Intent: FeatureIntent, each Input: ActionInputValue>(
        enabled: Bool? = nil, prompt: ActionPrompt? = nil, _ intent: (repeat each Input) -> Intent
    ) {
        var types: [ActionInputType] = []
        for type in repeat (each Input).self { types.append(type.inputType) }
        let (event, base) = Self.body(of: intent(repeat (each Input).probes.0))
        var fields = base
        for (index, type) in types.enumerated() {
            let counter = ProbeCounter()
            let (_, varied) = Self.body(of: intent(repeat counter.probe((each Input).self, varying: index)))
            for name in Set(base.keys).union(varied.keys) where base[name] != varied[name] {
                fields[name] = .placeholder(ActionPlaceholder(name: name, type: type))
            }
        }
        self.init(event: event, fields: fields, enabled: enabled, prompt: prompt)
    }

    /// The `type` and the other members of what `intent` encodes.
    private static func body<Intent: FeatureIntent>(of intent: Intent) -> (event: String, fields: [String: ActionValue])
    {
        let members: [(key: String, value: CapturedValue)]
        do {
            guard let object = try CapturingEncoder.capture(intent).members else {
                preconditionFailure("\(Intent.self) does not encode as a JSON object, so no action can post it")
            }
            members = object
        } catch {
            preconditionFailure("\(Intent.self) failed to encode for an action: \(error)")
        }
        var event: String?
        var fields: [String: ActionValue] = [:]
        for (key, value) in members {
            guard let scalar = ActionValue(value) else {
                preconditionFailure("\(Intent.self)'s member '\(key)' is not a string, number, boolean or null")
            }
            if key == "type", case .string(let type) = scalar { event = type } else { fields[key] = scalar }
        }
        guard let event else { preconditionFailure("\(Intent.self) encodes no type, so no action can post it") }
        return (event, fields)
    }
}

/// Hands out the probes of one call of an action's intent closure: each input's first probe, its second for the
/// input at `varying` (inputs are counted in the order the closure takes them).
private final class ProbeCounter {
    private var position = 0

    func probe<Value: ActionInputValue>(_ type: Value.Type, varying: Int) -> Value {
        defer { position += 1 }
        return position == varying ? Value.probes.1 : Value.probes.0
    }
}
