/// libFuzzer target for each feature's event decoding, as `POST /v1/sessions/{id}/{feature}/events` reads a body:
/// media type, JSON, the event objects (one or a batch), then the feature's own decoding of each event. Run with
/// `Fuzz/run.sh`; built only when `VIEWHOST_FUZZ` is set.
///
/// Input layout: byte 0 picks the feature (bits 0–1: the seed features in the `viewhost` executable's order,
/// chat, weather, login, person) and the `Content-Type` (bits 2–3); the rest is the body. A broken invariant traps:
/// * a body is either decoded into 1 to 100 events or refused with a 4xx and a detail (never a crash, never 5xx);
/// * decoding is a pure function of the body: the same answer twice.
import ChatFeature
import FuzzSupport
import HTTPCore
import LoginFeature
import PersonFeature
import ViewHost
import WeatherFeature

@_cdecl("EventDecodingFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzEventDecoding)
}

/// The seed features' events routes, as the `viewhost` executable serves them.
let decoding = FuzzEntryPoints.EventDecoding([.chat, .weather, .login, .person])

let contentTypes = ["application/json", "Application/JSON; charset=utf-8", "application/merge-patch+json", "text/plain"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let feature = Int(data[0] & 3)
    let contentType = contentTypes[Int(data[0] >> 2 & 3)]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let request = HTTPRequest(
        method: .post, target: "/v1/sessions/s/\(decoding.featureNames[feature])/events",
        headers: [.contentType: contentType], body: body)
    let first = decoding.decodeEvents(request, feature: feature)
    switch first {
    case .success(let count):
        check((1...100).contains(count), "decoded \(count) events")
        check(contentType != "text/plain", "decoded a text/plain body")
    case .failure(let refusal):
        check((400..<500).contains(refusal.status), "refused with \(refusal.status): \(refusal.detail)")
        check(!refusal.detail.isEmpty, "refused without a detail")
    }
    let second = decoding.decodeEvents(request, feature: feature)
    switch (first, second) {
    case (.success(let a), .success(let b)): check(a == b, "decoded differently twice")
    case (.failure(let a), .failure(let b)):
        check(a.status == b.status && a.detail == b.detail, "refused differently twice")
    default: fatalError("decoded once, refused once")
    }
    return 0
}
