#include "OpCatalogue.h"

namespace placelint::analysis {

namespace {

// ops.def's fields, as bare identifiers in its entries.
enum class OpKind {
  Unary, Binary, Fill, Reduction, Matmul, Join, View, Copy, Transfer, Sync, Pin, Factory,
  WrapsMemory, Comparison, Query, Autograd
};
enum class OpDevices { SameDevice, SameDeviceStrict, OneTensor, NoTensor, AnyDevice };
enum class OpResult { Operands, Self, Argument, Options, Target, CurrentCuda, Cpu, NotATensor };
enum class OpRank { Same, Broadcast, ZeroDim, NotZeroDim, FromSizes, FromValues, Reduced, Unknown,
                    NotATensor };

// ops.def's entries by name.
enum class OpName {
#define PL_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank, Backward) Name,
#include <placelint/ops.def>
};

struct CatalogueOp {
  OpName Name;
  OpKind Kind;
  llvm::StringRef Method, Function, InPlace;
  OpDevices Devices;
  OpResult Result;
  OpRank Rank;
};

constexpr CatalogueOp kOps[] = {
#define PL_OP(Name, Kind, Method, Function, InPlace, Operator, Devices, Result, Rank, Backward)    \
  {OpName::Name, OpKind::Kind, #Method,        #Function,       #InPlace,                                       \
   OpDevices::Devices, OpResult::Result, OpRank::Rank},
#include <placelint/ops.def>
};

ResultRank rankOf(OpRank Rank) {
  switch (Rank) {
  case OpRank::Same:
    return ResultRank::SameAsInput;
  case OpRank::Broadcast:
    return ResultRank::Broadcast;
  case OpRank::ZeroDim:
  case OpRank::Reduced: // without a dim argument; the flow reads the others
    return ResultRank::ZeroDim;
  case OpRank::NotZeroDim:
  case OpRank::FromSizes: // `{}` sizes are rare enough to count as not 0-dim
    return ResultRank::NotZeroDim;
  case OpRank::FromValues:
    return ResultRank::OfLiteral;
  case OpRank::Unknown:
  case OpRank::NotATensor:
    return ResultRank::Unknown;
  }
  return ResultRank::Unknown;
}

ApiCall modelOf(const CatalogueOp &Op) {
  ApiCall Call;
  Call.Rank = rankOf(Op.Rank);
  Call.AdmitsCpuScalar = Op.Devices != OpDevices::SameDeviceStrict;
  switch (Op.Kind) {
  case OpKind::Unary:
  case OpKind::Fill:
    Call.Kind = CallKind::ShapePreserving;
    break;
  case OpKind::Binary:
  case OpKind::Matmul:
  case OpKind::Comparison:
    Call.Kind = CallKind::SameDeviceOp;
    break;
  case OpKind::Reduction:
    Call.Kind = CallKind::FullReduction;
    break;
  case OpKind::Join:
    Call.Kind = CallKind::ListOp;
    break;
  case OpKind::View:
    // The same elements: in another shape given by sizes (view, unsqueeze),
    // keeping the rank (transpose, detach), or of a rank the model does not
    // count (select, squeeze), as indexing is.
    Call.Kind = Op.Rank == OpRank::Same      ? CallKind::ShapePreserving
                : Op.Rank == OpRank::Unknown ? CallKind::Indexing
                                             : CallKind::Reshape;
    break;
  case OpKind::Copy:
    // The tensor taking its argument's data and device (set_data), a copy
    // into the tensor from any device (copy_), or a new copy (clone).
    Call.Kind = Op.Result == OpResult::Argument       ? CallKind::ReplacesData
                : Op.Devices == OpDevices::AnyDevice ? CallKind::CrossDeviceCopy
                                                     : CallKind::ShapePreserving;
    break;
  case OpKind::Transfer:
    Call.Kind = CallKind::Transfer;
    Call.Target = Op.Result == OpResult::Cpu           ? TransferTarget::Cpu
                  : Op.Result == OpResult::CurrentCuda ? TransferTarget::Cuda
                                                       : TransferTarget::Argument;
    break;
  case OpKind::Sync:
    Call.Kind = CallKind::SyncToHost;
    break;
  case OpKind::Pin:
    Call.Kind = CallKind::PinMemory;
    break;
  case OpKind::Factory:
    Call.Kind = Op.Rank == OpRank::ZeroDim ? CallKind::ScalarFactory : CallKind::Factory;
    break;
  case OpKind::WrapsMemory:
    Call.Kind = CallKind::WrapsHostMemory;
    break;
  case OpKind::Query:
    Call.Kind = Op.Name == OpName::OptionsOf ? CallKind::OptionsOf : CallKind::DeviceOf;
    break;
  case OpKind::Autograd:
    // Marking (in place) and reading the gradient; backward() and
    // retain_grad() move nothing and meet no other tensor.
    Call.Kind = Op.Result == OpResult::Self         ? CallKind::MarkRequiresGrad
                : Op.Result == OpResult::NotATensor ? CallKind::Metadata
                                                    : CallKind::GradRead;
    break;
  }
  return Call;
}

} // namespace

void addCatalogueOps(ProfileTable &Table) {
  for (const CatalogueOp &Op : kOps) {
    ApiCall Call = modelOf(Op);
    if (!Op.Method.empty())
      Table.TensorMethods[Op.Method] = Call;
    if (!Op.Function.empty())
      Table.FreeFunctions[Op.Function] = Call;
    if (!Op.InPlace.empty()) {
      ApiCall InPlace = Call;
      InPlace.InPlace = true;
      Table.TensorMethods[Op.InPlace] = InPlace;
    }
  }
}

} // namespace placelint::analysis
