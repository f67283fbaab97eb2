#ifndef C_POSTGRESQL_H
#define C_POSTGRESQL_H

// Umbrella header over the system libpq (Debian: libpq-dev). Swift imports libpq's functions directly; the
// PostgresStorage target wraps them.
#include <libpq-fe.h>

#endif
