# Warnings and language levels for our own targets only (no global flags): every target of the
# project calls gpuprims_target_defaults, third-party code never sees these.
option(GPUPRIMS_WERROR "Treat warnings of our own targets as errors (C++, nvcc's host compiler and nvcc itself)" OFF)

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
  if(GPUPRIMS_PTXAS_VERBOSE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
  endif()
endfunction()
