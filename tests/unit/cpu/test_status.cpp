#include <gtest/gtest.h>

#include <gpuprims/gpuprims.hpp>

#include <set>
#include <string>

TEST(Status, EveryValueHasItsOwnName) {
  using gpuprims::Status;
  std::set<std::string> names;
  for (Status s : {Status::success, Status::invalid_argument, Status::misaligned_pointer, Status::unsupported,
                   Status::cuda_error, Status::communication_error})
    names.insert(gpuprims::to_string(s));
  EXPECT_EQ(names.size(), 6u);
  EXPECT_STREQ(gpuprims::to_string(Status::success), "success");
  EXPECT_STREQ(gpuprims::to_string(Status::misaligned_pointer), "misaligned_pointer");
  EXPECT_STREQ(gpuprims::to_string(Status::communication_error), "communication_error");
  EXPECT_STREQ(gpuprims::to_string(static_cast<Status>(99)), "unknown_status");
}
