import Foundation
import ViewHostJSON

/// An export's line of another session's making (`delivery`), or of a contact's (`introduction`, `acknowledgement`),
/// read back (docs/JOURNAL-EXPORT.md): its address, numbers, names and failure held to what the library writes, as
/// ``JournalImport`` holds every line of an untrusted export.
enum ContactLine {
    /// The input `kind`'s line states.
    /// - Parameters:
    ///   - kind: `delivery`, `introduction` or `acknowledgement`.
    ///   - feature: The feature it names (checked already).
    ///   - at: Its instant (checked already).
    ///   - events: Its events, as a journal records them.
    ///   - value: The line's member of a name.
    ///   - fail: The error naming the line, for a reason.
    /// - Returns: The input the line records.
    /// - Throws: ``JournalImportError`` naming the line and the member.
    static func input(
        _ kind: String, feature: String, at: Date, events: Data, value: (String) -> JSONValue?,
        fail: (String) -> JournalImportError
    ) throws(JournalImportError) -> SessionInput {
        func string(_ member: String) throws(JournalImportError) -> String? {
            switch value(member) {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw fail("'\(member)' must be a string")
            }
        }
        func number(_ member: String) throws(JournalImportError) -> Int {
            guard case .number(let number)? = value(member), number == number.rounded(),
                (1...Double(SessionCore.maxCounter)).contains(number)
            else { throw fail("'\(member)' must be an integer, 1 to \(SessionCore.maxCounter)") }
            return Int(number)
        }
        func name(_ member: String) throws(JournalImportError) -> String? {
            guard let text = try string(member) else { return nil }
            guard Contact.isValidName(text) else {
                throw fail("'\(member)' must be a name of 1 to \(Contact.maxNameCharacters) characters")
            }
            return text
        }
        func required(_ member: String) throws(JournalImportError) -> String {
            guard let text = try name(member) else { throw fail("'\(member)' must be a string") }
            return text
        }
        guard let contact = try string("contact"), ContactAddress.isValid(contact) else {
            throw fail("'contact' must be 1 to \(ContactAddress.maxBytes) visible ASCII characters")
        }
        let address = ContactAddress(contact)
        switch kind {
        case "delivery":
            let introduction = try name("introduction")
            guard introduction == nil || events == Data("[]".utf8) else {
                throw fail("an introduction delivers no events")
            }
            return .delivery(
                feature: feature, at: at, from: address, number: try number("delivery"), introduction: introduction,
                events: events)
        case "introduction":
            return .introduction(
                feature: feature, at: at, contact: address, name: try required("name"),
                introducing: try required("introducing"))
        default:
            let failure = try string("failure")
            guard failure.map({ DeliveryFailure(rawValue: $0) != nil }) ?? true else {
                throw fail(
                    "'failure' must be null or one of \(DeliveryFailure.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            return .acknowledgement(
                feature: feature, at: at, to: address, through: try number("through"),
                failure: failure.flatMap(DeliveryFailure.init(rawValue:)))
        }
    }
}
