#ifndef BT_CGSL_SHIM_H
#define BT_CGSL_SHIM_H
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector_double.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_matrix_double.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_blas.h>
/// The Mersenne Twister generator type, as a function so Swift sees no mutable global.
static inline const gsl_rng_type *bt_gsl_rng_mt19937(void) { return gsl_rng_mt19937; }
#endif
