#ifndef WEBTABLEVIEW_CMICROHTTPD_SHIM_H
#define WEBTABLEVIEW_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <microhttpd.h>
#endif
