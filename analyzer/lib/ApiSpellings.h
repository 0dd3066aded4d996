// The API's names by spelling and std's holders (<placelint/api.def>'s
// PL_API_NAME and PL_API_STD_HOLDER lines), for the model's type classifier
// and the flow (private to analyzer/lib).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace placelint::analysis {

// The roles of PL_API_NAME lines (api.def's header says what each is).
enum class ApiNameRole {
  LossFunction,
  LossModule,
  StatelessModule,
  StatefulModule,
  ModuleImpl,
  ModuleHolder,
  ModuleBase,
  Dataset,
  DataLoader,
  OptimizerSpace,
  LossOptions,
  LossWeightSetter,
  NonBlocking,
  TestBody,
  TestClass,
  ThrowMacro,
  InPlaceMethod,
  CudaTest,
  HolderAccess,
  RandomFactory,
  DeviceConstant,
  HostBuffer,
  HostBufferData,
  PageableAllocator,
  PinsHostMemory,
  StreamGuard,
  CurrentStream,
  StreamClass,
  AtMostEach,
};

// Whether Name has the role: some line of the role matches it.
bool hasApiName(ApiNameRole Role, llvm::StringRef Name);

// Name without its role's suffix (`ReLU` for `ReLUImpl` as ModuleImpl);
// Name itself when no suffix of the role ends it.
llvm::StringRef withoutApiSuffix(ApiNameRole Role, llvm::StringRef Name);

// The text of a role with one line (NonBlocking: `non_blocking`).
llvm::StringRef apiName(ApiNameRole Role);

enum class StdHolder { Pointer, Optional, Sequence, Map, Tuple };

// What the template of QualifiedName (`std::vector`) is as a holder.
std::optional<StdHolder> stdHolder(llvm::StringRef QualifiedName);

} // namespace placelint::analysis
