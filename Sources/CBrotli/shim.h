#ifndef WEBTABLEVIEW_CBROTLI_SHIM_H
#define WEBTABLEVIEW_CBROTLI_SHIM_H
/* The encoder compresses answers; the decoder lets tests read them back. */
#include <brotli/encode.h>
#include <brotli/decode.h>
#endif
