#pragma once
// Umbrella header for libgpuprims. Plain C++17: compiles with a host compiler alone.
#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>
#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>
#include <gpuprims/version.hpp>
