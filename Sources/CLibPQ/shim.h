#ifndef WEBTABLEVIEW_CLIBPQ_SHIM_H
#define WEBTABLEVIEW_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
