#ifndef WEBTABLEVIEW_CZLIB_SHIM_H
#define WEBTABLEVIEW_CZLIB_SHIM_H
#include <zlib.h>

/// `deflateInit2` is a macro, which Swift cannot call: a gzip stream (window
/// bits 15 + 16 asks zlib for the gzip wrapper) at `level`.
static inline int wtv_deflate_init_gzip(z_stream *stream, int level)
{
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// `inflateInit2` is a macro too: a stream that reads gzip (tests read
/// answers back with it).
static inline int wtv_inflate_init_gzip(z_stream *stream)
{
  return inflateInit2(stream, 15 + 16);
}

#endif
