#ifndef SNAPMAP_CPROJ_SHIM_H
#define SNAPMAP_CPROJ_SHIM_H
#include <proj.h>
#include <geodesic.h>
#endif
