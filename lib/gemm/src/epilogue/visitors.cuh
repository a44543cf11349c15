#pragma once
// Every epilogue visitor, and the one place an EpilogueKind becomes a visitor type. Adding a visitor:
// its file, its EpilogueKind value and VisitorArgs member (visitor_args.hpp), and a case here. A
// kernel whose threads visit their results one at a time in row-major order may run a visitor's
// streaming form instead (StreamingForm, top2_stream_visitor.cuh).
#include <type_traits>

#include "gemm/src/epilogue/row_top2_visitor.cuh"
#include "gemm/src/epilogue/store_visitor.cuh"
#include "gemm/src/epilogue/top2_packed_visitor.cuh"
#include "gemm/src/epilogue/top2_stream_visitor.cuh"
#include "gemm/src/epilogue/top2_wide_visitor.cuh"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

template <class V>
struct VisitorTag {
  using type = V;
};

// Calls f(VisitorTag<V>{}) with the visitor type of `kind`.
template <class F>
decltype(auto) with_visitor(EpilogueKind kind, F&& f) {
  switch (kind) {
    case EpilogueKind::top2_packed: return f(VisitorTag<Top2PackedVisitor>{});
    case EpilogueKind::top2_wide: return f(VisitorTag<Top2WideVisitor>{});
    case EpilogueKind::row_top2: return f(VisitorTag<RowTop2Visitor>{});
    case EpilogueKind::store: break;
  }
  return f(VisitorTag<StoreOnlyVisitor>{});
}

}  // namespace gpuprims::detail
