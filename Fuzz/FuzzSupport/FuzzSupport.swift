/// What every libFuzzer target in `Fuzz/` shares: the driver, the invariant check, and cutting input into reads.
/// Built only when `VIEWHOST_FUZZ` is set (see `Fuzz/run.sh`).

/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))` of libFuzzer.
@_extern(c, "LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Hands the command line to libFuzzer's driver with `callback` as the target. SwiftPM links an executable with
/// `main` renamed from `<module>_main`, so each target exports that name and calls this.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&argc, &argv, callback)
}

/// Traps with `message` when `condition` is false; unlike `precondition`, it keeps the message in release builds.
public func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// Cuts bytes into reads as a socket might deliver them, from a one-byte seed.
public enum ReadCutter {
    /// Cuts `bytes` into reads: one byte each (mode 0), pieces of 1–8 (1) or 1–64 bytes (2), or two pieces (3).
    public static func cut(_ bytes: [UInt8], mode: Int, seed: UInt8) -> [[UInt8]] {
        var random = UInt32(seed) &* 2_654_435_761 | 1
        func next(_ bound: Int) -> Int {
            random ^= random << 13
            random ^= random >> 17
            random ^= random << 5
            return Int(random % UInt32(bound))
        }
        if mode & 3 == 3 {
            let point = bytes.isEmpty ? 0 : next(bytes.count + 1)
            return [Array(bytes[..<point]), Array(bytes[point...])]
        }
        let largest = [1, 8, 64][mode & 3]
        var reads: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + next(largest))
            reads.append(Array(bytes[start..<end]))
            start = end
        }
        return reads
    }
}

/// Bytes safe inside a header field value as the parser hands it over: no CR, LF or NUL, no other control byte
/// but HTAB, and no whitespace at either end (the parser trims it).
public func fieldValue(_ bytes: some Sequence<UInt8>) -> String {
    let kept = bytes.filter { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    var slice = kept[...]
    while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
    while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
    return String(decoding: slice, as: UTF8.self)
}
