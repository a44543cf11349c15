# Warnings, language levels and (optionally) host sanitizers or unoptimized device code for our own
# targets only (no global flags): every target of the project calls gpuprims_target_defaults,
# third-party code never sees these.
option(GPUPRIMS_WERROR "Treat warnings of our own targets as errors (C++, nvcc's host compiler and nvcc itself)" OFF)
option(GPUPRIMS_UNOPTIMIZED_DEVICE_CODE
  "Compile our device code without optimization (cicc and ptxas at -O0; host code as the build type says): \
minutes shorter, for builds whose kernels are neither run nor timed, such as the CPU-only CI's sanitizer and \
shared-library builds" OFF)
set(GPUPRIMS_SANITIZE "" CACHE STRING
    "Host sanitizers for our own targets, a comma-separated -fsanitize= list (e.g. address,undefined); empty: none")

function(gpuprims_target_defaults target)
  target_compile_features(${target} PRIVATE cxx_std_17 cuda_std_17)
  set_target_properties(${target} PROPERTIES
    CXX_EXTENSIONS OFF
    CUDA_EXTENSIONS OFF
    CUDA_RUNTIME_LIBRARY Shared)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
  if(GPUPRIMS_WERROR)
    # CUDA: the host compiler's warnings (-Xcompiler) and nvcc's own (front end, ptxas, nvlink).
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Werror>
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Werror --Werror=all-warnings>)
  endif()
  if(GPUPRIMS_SANITIZE)
    # Host code only: C++ sources, and the host side of .cu files through -Xcompiler (one option per
    # -Xcompiler, since nvcc splits its argument at commas). CMake links both C++ and CUDA targets with
    # the host compiler, so the link takes the plain flags; a static library hands them to whatever
    # links it (its objects need the sanitizer runtimes).
    string(REPLACE "," ";" _sanitizers "${GPUPRIMS_SANITIZE}")
    set(_host_flags -fno-omit-frame-pointer)
    foreach(_s IN LISTS _sanitizers)
      list(APPEND _host_flags -fsanitize=${_s})
    endforeach()
    list(TRANSFORM _host_flags PREPEND "-Xcompiler=" OUTPUT_VARIABLE _cuda_flags)
    target_compile_options(${target} PRIVATE
      "$<$<COMPILE_LANGUAGE:CXX>:${_host_flags}>"
      "$<$<COMPILE_LANGUAGE:CUDA>:${_cuda_flags}>")
    get_target_property(_type ${target} TYPE)
    if(_type STREQUAL "STATIC_LIBRARY")
      target_link_options(${target} INTERFACE ${_host_flags})
    else()
      target_link_options(${target} PRIVATE ${_host_flags})
    endif()
  endif()
  if(GPUPRIMS_UNOPTIMIZED_DEVICE_CODE)
    # cicc's optimizer (inlining and unrolling the tuned rungs' tiles) and ptxas are nearly all of a
    # device build's time: 319 s and 668 s of 10_tuned_configs.cu for sm_90 on the 2-core CI machine,
    # against 6 s for cicc at -O0 (compute_90 PTX, no ptxas).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcicc=-O0 -Xptxas=-O0>)
  endif()
  if(GPUPRIMS_PTXAS_VERBOSE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
  endif()
endfunction()
