#pragma once
// The library builds with hidden visibility; only the public API is exported from the shared library.
//! GPUPRIMS_API marks the exported declarations (default visibility while the library is built).
#if defined(GPUPRIMS_BUILDING)
#define GPUPRIMS_API __attribute__((visibility("default")))
#else
#define GPUPRIMS_API
#endif
