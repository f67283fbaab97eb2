import TestSupport
import Testing
import ViewHostAPI
import ViewModelCore

struct GregorianDateTests {
    /// A hundred thousand days: on a thread of its own, off the cooperative pool that parallel tests' in-process
    /// servers need, with one expectation over the days that failed.
    @Test func civilFromDaysAndBackAgreeOverTheWholeRange() async throws {
        let failures = try await OffThread.run(stackSize: nil) { () -> [Int] in
            stride(from: -719_162 - 400, through: 2_932_896 + 400, by: 37).filter { days in
                let date = GregorianDate(localSeconds: days * 86_400 + 45_296)
                return !date.isValid || date.localSeconds != days * 86_400 + 45_296
                    || (date.hour, date.minute, date.second) != (12, 34, 56)
            }
        }
        #expect(failures.isEmpty, "days that do not come back: \(failures.prefix(10))")
    }

    @Test func weekdayOfTheEpochIsThursdayAndOfTheDayBeforeWednesday() {
        #expect(GregorianDate(year: 1970, month: 1, day: 1).weekday == 4)
        #expect(GregorianDate(year: 1969, month: 12, day: 31).weekday == 3)
        #expect(GregorianDate(year: 1, month: 1, day: 1).weekday == 1)
    }

    @Test func leapYearsFollowTheGregorianRule() {
        #expect(GregorianDate.daysInMonth(2, of: 2000) == 29)
        #expect(GregorianDate.daysInMonth(2, of: 1900) == 28)
        #expect(GregorianDate.daysInMonth(2, of: 2024) == 29)
        #expect(GregorianDate.daysInMonth(2, of: 2023) == 28)
    }
}
