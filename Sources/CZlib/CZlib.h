#ifndef C_ZLIB_H
#define C_ZLIB_H

// Umbrella header over the system zlib (Debian: zlib1g-dev), after adam-fowler/compress-nio's
// CCompressZlib: only wrappers for the macros Swift cannot import.
#include <zlib.h>

/// deflateInit2 is a macro over deflateInit2_; Swift cannot call it directly.
static inline int CZlib_deflateInit2(z_streamp stream, int level, int method, int windowBits, int memLevel,
                                     int strategy) {
    return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}

/// inflateInit2 is a macro over inflateInit2_; Swift cannot call it directly.
static inline int CZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
