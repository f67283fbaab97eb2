import Foundation
import PersonAPI
import ViewHostAPI
import ViewModelCore

/// What a person read from outside (a journal export) is held to: what `setPerson` takes.
extension PersonApp {
    /// Refuses a person `setPerson` could not have made: a name past ``PersonIntent/nameLimit``, a salutation past
    /// ``PersonIntent/shortLimit``, a birthdate outside the years 1 to 9999.
    public static func validate(state: Person) throws(ValueRejection) {
        if let salutation = state.salutation {
            try ValueRejection.check(salutation, within: PersonIntent.shortLimit, field: "salutation")
        }
        try ValueRejection.check(state.firstName, within: PersonIntent.nameLimit, field: "firstName")
        try ValueRejection.check(state.lastName, within: PersonIntent.nameLimit, field: "lastName")
        try ValueRejection.check(state.birthdate, field: "birthdate")
    }

    /// Refuses a `personChanged` whose person ``validate(state:)`` refuses.
    public static func validate(event: PersonEvent) throws(ValueRejection) {
        switch event {
        case .personChanged(let person): try ValueRejection.inside("personChanged") { try validate(state: person) }
        }
    }
}
