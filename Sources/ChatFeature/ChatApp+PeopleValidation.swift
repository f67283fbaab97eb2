import ChatAPI
import Foundation
import ViewHostAPI
import ViewModelCore

/// What the persons of a chat read from outside (a journal export) are held to.
extension ChatApp {
    /// Refuses persons the chat never keeps: more than it has chats, names past their limit, an id past the count,
    /// two with one display name or address, one whose chat is missing.
    static func validate(people: PeopleState, model: ChatModel) throws(ValueRejection) {
        try ValueRejection.check(count: people.contacts.count, atMost: model.configuration.maxChats, field: "contacts")
        try ValueRejection.check(people.lastContactID, in: 0...SessionCore.maxCounter, field: "lastContactID")
        var names = Set<String>()
        var addresses = Set<ContactAddress>()
        for (index, person) in people.contacts.enumerated() {
            let field = "contacts[\(index)]"
            try ValueRejection.check(person.name, within: ChatIntent.contactLimit, field: "\(field).name")
            try ValueRejection.check(person.displayName, within: ChatIntent.contactLimit, field: "\(field).displayName")
            try ValueRejection.check(
                person.lastReceived.value, in: 0...SessionCore.maxCounter, field: "\(field).lastReceived")
            guard ContactAddress.isValid(person.address.rawValue) else {
                throw ValueRejection(field: "\(field).address", reason: "is not an address")
            }
            guard names.insert(person.displayName).inserted, addresses.insert(person.address).inserted else {
                throw ValueRejection(field: field, reason: "names the display name or address of an earlier contact")
            }
            guard model.hasChat(with: person.displayName) else {
                throw ValueRejection(field: "\(field).displayName", reason: "names no chat")
            }
        }
    }

    /// Refuses an event between persons the chat never makes: texts past their limits, ids past the counter.
    static func validate(person event: PersonEvent) throws(ValueRejection) {
        switch event {
        case .introduced(let name, let address):
            try ValueRejection.check(name, within: ChatIntent.contactLimit, field: "introduced.name")
            guard ContactAddress.isValid(address.rawValue) else {
                throw ValueRejection(field: "introduced.address", reason: "is not an address")
            }
        case .message(let text, let sendDate, let id):
            try ValueRejection.check(text, within: ChatIntent.messageLimit, field: "message.text")
            try ValueRejection.check(sendDate, field: "message.sendDate")
            try ValueRejection.check(id.value, in: 0...SessionCore.maxCounter, field: "message.id")
        case .read(let upTo):
            try ValueRejection.check(upTo.value, in: 0...SessionCore.maxCounter, field: "read.upTo")
        case .undelivered(let id, let address, _):
            try ValueRejection.check(id.value, in: 0...SessionCore.maxCounter, field: "undelivered.id")
            guard ContactAddress.isValid(address.rawValue) else {
                throw ValueRejection(field: "undelivered.address", reason: "is not an address")
            }
        }
    }
}
