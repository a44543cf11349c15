#pragma once
// Lets combine operators and launch arithmetic compile for the device under nvcc and as plain host
// code under g++, so CI (no GPU) can test their algebra.
#if defined(__CUDACC__)
#define GPUPRIMS_HD __host__ __device__ __forceinline__
#else
#define GPUPRIMS_HD inline
#endif
