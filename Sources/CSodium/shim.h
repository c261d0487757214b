#ifndef TWITTERD_CSODIUM_SHIM_H
#define TWITTERD_CSODIUM_SHIM_H
#include <sodium.h>
#endif
