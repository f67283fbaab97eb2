import Foundation
import PersonAPI
import ViewHostAPI

@testable import PersonFeature

extension Person {
    /// A person with every argument defaulted to the seed's test person.
    static func make(
        salutation: String? = "Dr.", firstName: String = "first", lastName: String = "last",
        birthdate: Date = Date(timeIntervalSince1970: 0)
    ) -> Person {
        Person(salutation: salutation, firstName: firstName, lastName: lastName, birthdate: birthdate)
    }
}

extension TimeZone {
    /// A zone by its identifier (tests only name zones that exist).
    static func named(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier)!
    }
}
