#ifndef SNAPMAP_CFREETYPE_SHIM_H
#define SNAPMAP_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include <hb.h>
#include <hb-ft.h>
#endif
