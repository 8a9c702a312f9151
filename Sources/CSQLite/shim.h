#ifndef SNAPMAP_CSQLITE_SHIM_H
#define SNAPMAP_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
