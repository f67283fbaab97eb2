import HTTPCore
import Testing

/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3), one row per rule or pitfall.
struct ContentCodingNegotiationTests {
    @Test(
        arguments: [
            (nil, .identity),  // no header: the client did not ask
            ("", .identity),  // empty value: "no coding" (§12.5.3)
            ("gzip", .gzip),
            ("GZIP", .gzip),
            ("x-gzip", .gzip),  // §8.4.1.3
            ("X-Gzip;Q=0.8", .gzip),
            ("gzip;q=1.0", .gzip),
            ("gzip;q=1.000", .gzip),
            ("gzip ; q=0.001", .gzip),
            ("  gzip\t,  deflate  ", .gzip),
            ("gzip, deflate, br, zstd", .gzip),  // what browsers send
            ("br, gzip;q=0.5", .gzip),  // identity not named: the least preferred
            ("gzip;q=0", .identity),
            ("gzip;q=0.000", .identity),
            ("gzip;q=0, *", .identity),  // the explicit entry beats *
            ("deflate", .identity),
            ("br;q=1, deflate", .identity),
            ("identity", .identity),
            ("*", .gzip),  // ties go to gzip
            ("*;q=0.5", .gzip),
            ("*;q=0", nil),  // excludes identity as well (§12.5.3)
            ("*;q=0, identity", .identity),
            ("*;q=0, gzip", .gzip),
            ("identity;q=0", nil),
            ("identity;q=0, gzip", .gzip),
            ("gzip;q=0, identity;q=0", nil),
            ("gzip;q=0.5, identity", .identity),  // identity named with a higher weight
            ("gzip;q=0.5, identity;q=0.5", .gzip),
            ("gzip;q=0.4, *;q=0.5", .identity),  // * speaks for the unnamed identity, and 0.5 > 0.4
            ("gzip, gzip;q=0", .identity),  // a repeated coding counts with its lowest weight
            (",, gzip ,", .gzip),  // empty list items
            ("gzip;level=9", .gzip),  // unknown parameters ignored
            ("gzip;q=2", .identity),  // invalid weights: the item is ignored
            ("gzip;q=abc", .identity),
            ("gzip;q=0.0001", .identity),
            ("gzip;q=", .identity),
            ("gzip;q=-1", .identity),
            ("identity;q=2, *;q=0", nil),  // the invalid identity entry is ignored, so * rules it out
            ("identity;q=bad", .identity),
        ] as [(String?, ContentCoding?)])
    func preferredCodingFollowsTheWeights(acceptEncoding: String?, expected: ContentCoding?) {
        #expect(ContentCodingNegotiation.preferredCoding(acceptEncoding: acceptEncoding) == expected)
    }
}
