#include "internal.h"
#include <stdlib.h>
#include <string.h>

/* Queries that could not fit. MHD parses every query argument into the connection's fixed memory pool before
   the handler sees the request; when the pool runs out (about 500 short arguments in 32 KiB) MHD's error
   answer cannot be made either, and the connection hangs until the request timeout. So the query is looked at
   here first, in MHD's URI callback, which runs on the raw request line just before that parsing: a query with
   more arguments or bytes than the server takes is cut right after its '?' (the line is MHD's own writable
   read buffer), MHD parses nothing, and the handler answers 400 from `query_refused`. */

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
    if (mark && too_large(mark + 1)) {
        mark[1] = 0;
        if (state) state->query_refused = 1;
    }
    return state;
}
