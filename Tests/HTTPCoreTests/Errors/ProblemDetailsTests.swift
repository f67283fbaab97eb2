import HTTPCore
import Testing

/// RFC 9457 problem documents: keys sorted so the bytes are stable, strings escaped, field errors listed.
struct ProblemDetailsTests {
    @Test func minimalDocumentHasSortedKeys() {
        let problem = ProblemDetails(status: .notFound)
        #expect(Self.text(problem) == #"{"status":404,"title":"Not Found","type":"about:blank"}"#)
    }

    @Test func everyMemberIsWrittenInKeyOrder() {
        let problem = ProblemDetails(
            type: "https://example.com/probs/invalid", status: .unprocessableContent, title: "Invalid event",
            detail: "The event is not valid.",
            errors: [
                ProblemDetails.FieldError(field: "contact", message: "must not be empty"),
                ProblemDetails.FieldError(field: "events[1].type", message: "unknown"),
            ],
            lists: ["allowed": ["send", "back"], "zeta": []])
        let expected =
            #"{"allowed":["send","back"],"detail":"The event is not valid.","#
            + #""errors":[{"field":"contact","message":"must not be empty"},{"field":"events[1].type","message":"unknown"}],"#
            + #""status":422,"title":"Invalid event","type":"https://example.com/probs/invalid","zeta":[]}"#
        #expect(Self.text(problem) == expected)
    }

    @Test func noErrorsMeansNoErrorsMember() {
        #expect(!Self.text(ProblemDetails(status: .badRequest, detail: "x")).contains("errors"))
    }

    @Test(arguments: [
        ("quote \"", #""quote \"""#),
        ("back\\slash", #""back\\slash""#),
        ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
        ("bell\u{7}nul\u{0}", #""bell\u0007nul\u0000""#),
        ("caf\u{E9} \u{1F600}", "\"caf\u{E9} \u{1F600}\""),
        ("</script>", #""</script>""#),
    ])
    func detailIsEscaped(detail: String, json: String) {
        let text = Self.text(ProblemDetails(status: .badRequest, detail: detail))
        #expect(text.contains(#""detail":\#(json),"#))
    }

    @Test func escapingAppliesToFieldErrorsAndLists() {
        let problem = ProblemDetails(
            status: .badRequest, errors: [ProblemDetails.FieldError(field: "a\"b", message: "x\ny")],
            lists: ["k\"": ["v\\"]])
        #expect(Self.text(problem).contains(#"{"field":"a\"b","message":"x\ny"}"#))
        #expect(Self.text(problem).contains(#""k\"":["v\\"]"#))
    }

    @Test func responseCarriesStatusAndMediaType() {
        let response = ProblemDetails(status: .conflict, detail: "Taken.").response
        #expect(response.status == .conflict)
        #expect(response.headers[.contentType] == "application/problem+json")
        guard case .bytes(let bytes) = response.body else {
            Issue.record("expected a byte body")
            return
        }
        #expect(bytes == ProblemDetails(status: .conflict, detail: "Taken.").json)
    }

    @Test func httpErrorBuildsItsProblem() {
        let error = HTTPError(
            .unprocessableContent, detail: "Bad.", errors: [ProblemDetails.FieldError(field: "f", message: "m")])
        #expect(error.problem.status == .unprocessableContent)
        #expect(error.problem.detail == "Bad.")
        #expect(error.problem.errors.count == 1)
        #expect(error.response.status == .unprocessableContent)
    }

    @Test func parserErrorBecomesAProblemWithItsSentence() {
        let problem = HTTPParserError.bodyTooLarge.problem
        #expect(problem.status == .contentTooLarge)
        #expect(problem.detail == HTTPParserError.bodyTooLarge.description)
    }

    private static func text(_ problem: ProblemDetails) -> String {
        String(decoding: problem.json, as: UTF8.self)
    }
}
