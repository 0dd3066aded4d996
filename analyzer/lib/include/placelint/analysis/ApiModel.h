// The API model: which types are tensors, devices, tensor options and
// modules, and which functions create, transfer and combine tensors. The
// tables are data (ApiModel.cpp); two built-in profiles, `pl` (this
// project's runtime) and `libtorch`.
#pragma once

#include "placelint/analysis/DeviceLattice.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CXXRecordDecl;
class EnumDecl;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

enum class ApiProfile { Auto, Pl, Libtorch };

std::optional<ApiProfile> parseApiProfile(llvm::StringRef Name);
llvm::StringRef apiProfileName(ApiProfile Profile);

// What a value of some type is to the analysis.
enum class ValueKind {
  Other,
  Tensor,
  Device,        // a Device object
  DeviceType,    // the DeviceType enum (kCPU, kCUDA, ...)
  TensorOptions, // options that may carry a device
  Module,        // a module, a module holder, or a shared_ptr to a module
  TensorList     // std::vector, tuple or pair of tensors (or of values that may hold one)
};

// The names one profile contributes. Class names are fully qualified
// canonical names; a class derived from a listed class counts as it.
struct ProfileTable {
  llvm::StringRef Name;
  std::vector<llvm::StringRef> TensorClasses;
  std::vector<llvm::StringRef> DeviceClasses;
  std::vector<llvm::StringRef> DeviceTypeEnums;
  std::vector<llvm::StringRef> OptionsClasses;
  std::vector<llvm::StringRef> ModuleClasses;
  // Classes that may hold a tensor, whose vectors count as lists of tensors
  // (torch::jit::IValue, the inputs of a scripted module).
  std::vector<llvm::StringRef> TensorHolderClasses;
  // Namespaces whose free functions are the tensor API (factories, ops).
  std::vector<llvm::StringRef> ApiNamespaces;
};

const ProfileTable &profileTable(ApiProfile Profile);

// What the analysis is configured with: the checks' options that change
// what it computes (so that every check sharing one analysis agrees on them).
struct AnalysisOptions {
  ApiProfile Profile = ApiProfile::Auto;
  // The user's own functions that tell whether CUDA is there (`bool
  // has_gpu()`) or how many devices it has (`int gpu_count()`), by name or
  // qualified name.
  std::vector<std::string> AvailabilityChecks;

  friend bool operator==(const AnalysisOptions &, const AnalysisOptions &) = default;
};

// What the value of an availability check says.
enum class AvailabilityKind {
  Flag, // cuda::is_available(): whether at least one CUDA device is there
  Count // cuda::device_count(), getNumGPUs(): how many
};

// The kinds of free functions and tensor methods the analysis knows.
enum class CallKind {
  Unmodelled,     // not part of the tensor API
  OtherApi,       // a free function of the API the tables do not list
  Factory,        // zeros, ones, ...: a new tensor on the options' device
  FactoryLike,    // zeros_like(t, ...): on t's device unless options say
  ScalarFactory,  // scalar_tensor: a new 0-dim tensor
  Transfer,       // to, cuda, cpu
  SameDeviceOp,   // add, matmul, ...: all tensor operands on one device
  ListOp,         // cat, stack: all list elements on one device
  CrossDeviceCopy,// copy_: explicit, may cross devices
  Indexing,       // index, index_put_: index tensors may stay on the cpu
  WrapsHostMemory,// from_blob: a tensor over existing host memory
  FullReduction,  // sum(), mean(): 0-dim with no dimension argument
  ShapePreserving,// relu, exp, clone: same device and rank as the input
  DeviceOf,       // t.device(): the tensor's device
  OptionsOf,      // t.options(): options on the tensor's device
  OptionsDevice,  // device(d) / options.device(d): options with a device
  OptionsBuilder, // dtype(...), options.dtype(...): options, device unchanged
  SyncToHost      // item(): copies a device value to the host
};

// The model for one translation unit: the profiles in force (Auto resolves
// to the profiles whose tensor class the unit declares) and a cache of type
// classifications.
class ApiModel {
public:
  ApiModel(const clang::ASTContext &Context, const AnalysisOptions &Options);

  ValueKind classify(clang::QualType Type) const;
  bool isTensor(clang::QualType Type) const {
    return classify(Type) == ValueKind::Tensor;
  }
  // The library module class behind a module type (`ReLUImpl` for
  // `ReLU`, `ModuleHolder<ReLUImpl>` or `shared_ptr<ReLUImpl>`), or null
  // for user modules and other types.
  const clang::CXXRecordDecl *libraryModule(clang::QualType Type) const;
  // The user's module class behind a module type (`Net` for `Net`,
  // `NetImpl` for a TORCH_MODULE holder, `shared_ptr<Net>`), or null for
  // library modules and other types.
  const clang::CXXRecordDecl *userModule(clang::QualType Type) const;
  // A library module with no parameters or buffers of its own (activations,
  // dropout, pooling, losses): it runs on whatever device its input is on.
  bool isStatelessModule(clang::QualType Type) const;
  // A loss module (`CrossEntropyLoss`, ...): its result is 0-dim.
  bool isLossModule(clang::QualType Type) const;
  // An optimizer (torch::optim::Adam, ...), which changes the tensors it
  // holds in place on every step().
  bool isOptimizer(clang::QualType Type) const;
  // Free functions in an API namespace, by name (OtherApi when unlisted).
  CallKind classifyFreeFunction(const clang::FunctionDecl &Function) const;
  // Methods called on a tensor, by name.
  static CallKind classifyTensorMethod(llvm::StringRef Name);
  // Methods called on tensor options, by name.
  static CallKind classifyOptionsMethod(llvm::StringRef Name);
  // Whether Function tells if, or how many, CUDA devices are there: the
  // library's checks, and the user's listed in AnalysisOptions.
  std::optional<AvailabilityKind> availabilityCheck(const clang::FunctionDecl &Function) const;
  // The device kind an enumerator of a DeviceType enum names (kCUDA, CUDA, ...).
  static std::optional<DeviceKind> deviceKindOfEnumerator(llvm::StringRef Name);

private:
  ValueKind classifyRecord(const clang::CXXRecordDecl &Record) const;
  ValueKind classifyByName(llvm::StringRef QualifiedName) const;
  bool isApiNamespace(llvm::StringRef Name) const;
  bool holdsTensors(clang::QualType Type) const;
  bool isApiRecord(const clang::CXXRecordDecl &Record) const;
  // The class behind a module type, through holders and shared_ptr.
  const clang::CXXRecordDecl *moduleClass(clang::QualType Type) const;

  std::vector<ApiProfile> Profiles;
  std::vector<std::string> UserAvailabilityChecks;
  mutable llvm::DenseMap<const clang::Type *, ValueKind> TypeCache;
};

} // namespace placelint::analysis
