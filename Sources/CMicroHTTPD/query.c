#include "internal.h"
#include <stdlib.h>
#include <string.h>

/* Queries that could not fit. MHD parses every query argument into the connection's fixed memory pool before
   the handler sees the request; when the pool runs out (about 500 short arguments in 32 KiB) MHD's error
   answer cannot be made either, and the connection hangs until the request timeout. So the query is looked at
   here first, in MHD's URI callback, which runs on the raw request line just before that parsing: a query with
   more arguments or bytes than the server takes is cut right after its '?' (the line is MHD's own writable
   read buffer), MHD parses nothing, and the handler answers 400 from `query_refused`.
   An encoded control character anywhere in the URI (%00-%1F, %7F) is refused the same way: MHD decodes the path
   and the arguments into C strings, where %00 would cut `friends/zed%00junk` to `friends/zed`. */

static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int has_encoded_control(const char *uri) {
    for (const char *at = uri; (at = strchr(at, '%')) != NULL; at++) {
        int high = hex(at[1]), low = high < 0 ? -1 : hex(at[2]);
        if (low >= 0 && (high * 16 + low < 0x20 || high * 16 + low == 0x7F)) return 1;
    }
    return 0;
}

static int too_large(const char *query) {
    size_t length = strlen(query);
    if (length > CHTTPD_MAX_QUERY_BYTES) return 1;
    int arguments = 1;
    for (const char *at = query; (at = strchr(at, '&')) != NULL; at++) {
        if (++arguments > CHTTPD_MAX_ARGUMENTS) return 1;
    }
    return 0;
}

void *chttpd_check_query(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    (void)connection;
    request_state *state = (request_state *)calloc(1, sizeof(request_state));
    char *mark = uri ? strchr(uri, '?') : NULL;
    if ((mark && too_large(mark + 1)) || (uri && has_encoded_control(uri))) {
        if (mark) mark[1] = 0;
        if (state) state->query_refused = 1;
    }
    return state;
}
