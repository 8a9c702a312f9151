#include "internal.h"
#include <stdlib.h>
#include <string.h>

int chttpd_headers_add(chttpd_headers *headers, const char *name, const char *value) {
    if (headers->count >= CHTTPD_MAX_HEADERS || !name || !value) return -1;
    headers->names[headers->count] = strdup(name);
    headers->values[headers->count] = strdup(value);
    headers->count++;
    return 0;
}

void chttpd_headers_apply(const chttpd_headers *headers, chttpd_server *server, struct MHD_Response *response) {
    for (int i = 0; i < headers->count; i++) MHD_add_response_header(response, headers->names[i], headers->values[i]);
    chttpd_close_when_stopping(server, response);
}

void chttpd_headers_free(chttpd_headers *headers) {
    for (int i = 0; i < headers->count; i++) {
        free(headers->names[i]);
        free(headers->values[i]);
    }
}
