import Testing
import ViewHostCrypto

/// SHA-256 against the test vectors of FIPS 180-2 (appendix B) and the empty string.
struct DigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesTheStandardVectors(message: String, expected: String) {
        #expect(Digest.hex(Digest.sha256(Array(message.utf8))) == expected)
    }

    @Test func partsAreDigestedAsOneMessage() {
        let whole = Digest.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        let parts = Digest.sha256(Array("abcdbcdecdefdefg".utf8), [], Array("efghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(parts == whole)
    }

    @Test func aMillionAs() {
        let digest = Digest.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(Digest.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
