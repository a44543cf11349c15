#pragma once
// The few properties of the current device that launch arithmetic needs, queried once per device.
#include <gpuprims/status.hpp>

namespace gpuprims::detail {

struct DeviceInfo {
  int ordinal = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int l2_bytes = 0;
  int max_smem_per_block_optin = 0;
  int cc_major = 0;
  int cc_minor = 0;
};

// The current device's properties. Status::unsupported when there is no device or no driver.
Status current_device_info(const DeviceInfo** out) noexcept;

}  // namespace gpuprims::detail
