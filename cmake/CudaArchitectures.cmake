# Default CUDA targets when the user names none: Ampere (80) and Hopper (90), as real machine code.
# "native" needs a visible GPU and CMake's fallback is the toolkit's oldest target; neither is
# what a library meant for data-centre GPUs should ship.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(CMAKE_CUDA_ARCHITECTURES "80;90" CACHE STRING "CUDA architectures to build for")
endif()
