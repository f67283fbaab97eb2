#ifndef C_OPENSSL_H
#define C_OPENSSL_H

// Umbrella header over the system OpenSSL (Debian: libssl-dev): only wrappers for the ctrl-based
// macros Swift cannot import. TLS logic lives in the HTTPTLS target.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/sha.h>

static inline long COpenSSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return SSL_CTX_set_min_proto_version(context, version);
}

static inline long COpenSSL_CTX_set_max_proto_version(SSL_CTX *context, int version) {
    return SSL_CTX_set_max_proto_version(context, version);
}

static inline long COpenSSL_CTX_set_options(SSL_CTX *context, unsigned long options) {
    return (long)SSL_CTX_set_options(context, options);
}

static inline long COpenSSL_CTX_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

static inline void COpenSSL_CTX_set_read_ahead(SSL_CTX *context, int on) {
    SSL_CTX_set_read_ahead(context, on);
}

static inline long COpenSSL_CTX_set_session_cache_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_session_cache_mode(context, mode);
}

static inline long COpenSSL_CTX_set_num_tickets(SSL_CTX *context, size_t count) {
    return SSL_CTX_set_num_tickets(context, count);
}

// Session-ticket keys (name, HMAC and AES keys: 80 bytes in OpenSSL 3), so a reloaded context keeps the old keys.
static inline long COpenSSL_CTX_get_ticket_keys(SSL_CTX *context, unsigned char *keys, long length) {
    return SSL_CTX_get_tlsext_ticket_keys(context, keys, length);
}

static inline long COpenSSL_CTX_set_ticket_keys(SSL_CTX *context, unsigned char *keys, long length) {
    return SSL_CTX_set_tlsext_ticket_keys(context, keys, length);
}

static inline long COpenSSL_session_reused(SSL *ssl) { return SSL_session_reused(ssl); }

static inline long COpenSSL_CTX_sess_number(SSL_CTX *context) { return SSL_CTX_sess_number(context); }

static inline const unsigned long COpenSSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
static inline const unsigned long COpenSSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline const unsigned long COpenSSL_OP_CIPHER_SERVER_PREFERENCE(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }
static inline const unsigned long COpenSSL_OP_IGNORE_UNEXPECTED_EOF(void) { return SSL_OP_IGNORE_UNEXPECTED_EOF; }
static inline const unsigned long COpenSSL_OP_NO_TICKET(void) { return SSL_OP_NO_TICKET; }
static inline const long COpenSSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }
static inline const long COpenSSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) { return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER; }
static inline const long COpenSSL_MODE_RELEASE_BUFFERS(void) { return SSL_MODE_RELEASE_BUFFERS; }

#endif
