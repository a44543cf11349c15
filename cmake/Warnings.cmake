# Warnings and language levels for our own targets only (no global flags).
function(gpuprims_target_defaults target)
  target_compile_features(${target} PRIVATE cxx_std_17 cuda_std_17)
  set_target_properties(${target} PROPERTIES
    CXX_EXTENSIONS OFF
    CUDA_EXTENSIONS OFF
    CUDA_RUNTIME_LIBRARY Shared)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
  if(GPUPRIMS_PTXAS_VERBOSE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
  endif()
endfunction()
