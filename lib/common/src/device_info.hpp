#pragma once
// The few properties of the current device that launch arithmetic needs, queried once per device.
#include <gpuprims/status.hpp>

namespace gpuprims::detail {

struct DeviceInfo {
  int ordinal = 0;   // the device's index: per-device caches are keyed by it
  int sm_count = 0;  // grid sizes
  int cc_major = 0;
  int cc_minor = 0;
  bool dependent_launch = false;  // programmatic dependent launch (launch_features.hpp)
  bool clusters = false;          // thread block clusters (launch_features.hpp)

  // Whether sm_90a code (the tensor-core rungs' wgmma form) runs here: compute capability 9.0 only.
  bool runs_sm90a() const noexcept { return cc_major == 9 && cc_minor == 0; }
};

// The current device's properties. Status::unsupported when there is no device or no driver.
Status current_device_info(const DeviceInfo** out) noexcept;

// Status::success when there is a current device, else what current_device_info says: the check an
// allocating entry point makes before it allocates.
Status require_device() noexcept;

}  // namespace gpuprims::detail
