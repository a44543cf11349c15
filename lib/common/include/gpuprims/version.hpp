#pragma once
// The library's version, as the CMake package reports it (gpuprimsConfigVersion.cmake).
//! Major version: incompatible API changes.
#define GPUPRIMS_VERSION_MAJOR 0
//! Minor version: additions that keep the API.
#define GPUPRIMS_VERSION_MINOR 1
//! Patch version: fixes.
#define GPUPRIMS_VERSION_PATCH 0
