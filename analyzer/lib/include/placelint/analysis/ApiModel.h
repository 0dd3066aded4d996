// The API model: which types are tensors, devices, tensor options and
// modules, and which functions create, transfer and combine tensors. The
// tables are data (ApiModel.cpp); two built-in profiles, `pl` (this
// project's runtime) and `libtorch`.
#pragma once

#include "placelint/analysis/DeviceLattice.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class CXXRecordDecl;
class EnumDecl;
class CallExpr;
class CXXMethodDecl;
class Expr;
class FunctionDecl;
} // namespace clang

namespace placelint::analysis {

enum class ApiProfile { Auto, Pl, Libtorch };

std::optional<ApiProfile> parseApiProfile(llvm::StringRef Name);
llvm::StringRef apiProfileName(ApiProfile Profile);

// What a value of some type is to the analysis. Smart pointers and
// std::optional are what they hold.
enum class ValueKind {
  Other,
  Tensor,
  Device,        // a Device object
  DeviceType,    // the DeviceType enum (kCPU, kCUDA, ...)
  TensorOptions, // options that may carry a device
  Module,        // a module, a module holder, or a shared_ptr to a module
  TensorList,    // a container of tracked values (std::vector<Tensor>, a map of
                 // tensors, a vector of batches), or a tuple or pair of tensors
  Aggregate      // a struct, tuple or pair with tracked parts (a batch, a config)
};

// What a call does, to the analysis. Every name the analysis knows maps to
// one kind (ApiModel.cpp's tables); the flow analysis dispatches on kinds.
enum class CallKind {
  Unmodelled,      // neither the tensor API nor a std facility that holds tensors
  OtherApi,        // a function or tensor method of the API the tables do not list:
                   // its tensor arguments on one device, its result there
  // Making tensors.
  Factory,         // zeros, ones, ...: a new tensor on the options' device
  FactoryLike,     // zeros_like(t, ...): on t's device unless options say
  ScalarFactory,   // scalar_tensor: a new 0-dim tensor
  WrapsHostMemory, // from_blob: a tensor over existing host memory
  Sample,          // bernoulli(p), multinomial(p, n), normal(mean, std): random
                   // values drawn from tensors (on their device) or from
                   // numbers (a factory)
  // Moving them.
  Transfer,        // to, cuda, cpu (ApiCall::Target says which)
  CrossDeviceCopy, // copy_: explicit, may cross devices
  ReplacesData,    // set_data(other): the tensor now holds other's data, on other's device
  SyncToHost,      // item(): copies a device value to the host
  PinMemory,       // pin_memory(): a copy in page-locked host memory
  // Computing with them.
  SameDeviceOp,    // add, matmul, ...: all tensor operands on one device
  ListOp,          // cat, stack: all list elements on one device
                   // (ApiCall::AdmitsCpuScalar says whether a 0-dim cpu one may join)
  Indexing,        // index, index_put_: index tensors may stay on the cpu
  FullReduction,   // sum(), mean(): 0-dim with no dimension argument
  ShapePreserving, // relu, exp, clone: same device and rank as the input
  Reshape,         // view, reshape, unsqueeze: same device, the sizes given
  ShapeOf,         // view_as(y), expand_as(y): y gives only a shape
  Split,           // split, chunk, unbind: a list of parts, on the tensor's device
  Loss,            // functional losses: inputs on one device, a 0-dim result
  // Reading what a tensor is, not its values.
  Metadata,        // sizes(), dim(), dtype(), is_pinned(), backward(): moves nothing,
                   // meets no other tensor
  DataAccess,      // data_ptr(), accessor(): the tensor's memory, read where it is
  // Reading a tensor's placement.
  DeviceOf,        // t.device()
  OptionsOf,       // t.options(): options on the tensor's device
  // Tensor options.
  OptionsDevice,       // device(d), options.device(d): options with a device
  OptionsBuilder,      // dtype(...), layout(...): options, device unchanged
  OptionsRequiresGrad, // requires_grad(): options that ask for a gradient
  OptionsPinnedMemory, // pinned_memory(): options for page-locked host memory
  // Autograd.
  GradRead,         // t.grad(): the tensor must be a leaf to have one
  MarkRequiresGrad, // t.requires_grad_(): in place, the tensor now requires grad
  // Modules.
  ModuleForward,      // model->forward(x): the module applied to its inputs
  ModuleParameters,   // parameters(), buffers(): tensors on the module's device
  ModuleTo,           // Module::to(device): moves the module in place
  RegisterParameter,  // register_parameter("w", w)
  RegisterBuffer,     // register_buffer("b", b)
  RegisterModule,     // register_module("fc", fc)
  ModuleInsert,       // seq->push_back(m), dict->insert("m", m): a container shares m
  ModuleHandle,       // holder.ptr(), get(), list->at<NetImpl>(0): the module it holds
  ModuleOptionWeight, // CrossEntropyLossOptions().weight(w): a loss's weight tensor
  // Waiting for the device.
  Synchronize,     // cuda::synchronize(), stream.synchronize(), event.synchronize():
                   // the host waits for the work queued on the device
  // Optimizers and data.
  OptimizerConstruction, // std::make_unique<SGD>(params, ...): an optimizer
  OptimizerStep,         // optimizer.step(): changes its tensors in place
  DatasetLoad,           // any method of a dataset: tensors loaded on the host
  SerializedLoad,        // torch::load(t, path): t read from a file, on the host
  // The std facilities that hold tensors.
  StdMove,     // std::move, std::forward: the value itself
  TupleMake,   // std::make_tuple, make_pair, forward_as_tuple
  TupleGet,    // std::get<I>(tuple)
  MakeShared,  // std::make_shared, make_unique
  ListInsert,  // push_back, emplace_back, insert, emplace
  ListRead,    // at, front, back
  ListClear    // clear
};

// The rank of an operation's result, for 0-dim tracking.
enum class ResultRank : std::uint8_t {
  Broadcast,   // element-wise: 0-dim only when every operand is
  SameAsInput, // the rank of the tensor it is called on
  ZeroDim,     // always 0-dim (`dot`, a loss)
  NotZeroDim,  // never 0-dim
  OfLiteral,   // `tensor(2.0)` is 0-dim, `tensor({1, 2})` is not
  Unknown      // depends on the operands' shapes (`matmul`)
};

// Where a transfer moves its tensor.
enum class TransferTarget : std::uint8_t {
  Argument, // to(device | options | tensor)
  Cuda,     // cuda([index]): the current CUDA device unless an index is given
  Cpu       // cpu()
};

// One call of the API as the model sees it.
struct ApiCall {
  CallKind Kind = CallKind::Unmodelled;
  ResultRank Rank = ResultRank::Broadcast;
  TransferTarget Target = TransferTarget::Argument;
  // Writes its result into the tensor it is called on (`add_`, `relu_`).
  bool InPlace = false;
  // One 0-dim cpu tensor may join the tensor operands on another device as
  // an input (PyTorch's TensorIterator rule, ops.def's SameDevice); not for
  // SameDeviceStrict ops (cat, stack, equal).
  bool AdmitsCpuScalar = true;

  bool isModelled() const { return Kind != CallKind::Unmodelled; }
  friend bool operator==(const ApiCall &, const ApiCall &) = default;
};

using ApiNames = llvm::StringMap<ApiCall>;

// What the value of an availability check says.
enum class AvailabilityKind {
  Flag, // cuda::is_available(): whether at least one CUDA device is there
  Count // cuda::device_count(), getNumGPUs(): how many
};

// The names one profile contributes (<placelint/api.def>, with the op
// catalogue's). Class names are fully qualified
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
  // The API's names, by what they are called on.
  ApiNames FreeFunctions; // in ApiNamespaces
  ApiNames TensorMethods; // unlisted ones are OtherApi
  ApiNames OptionsMethods;
  ApiNames ModuleMethods;
  ApiNames OptimizerMethods;
  // Methods of the API's other classes: streams and events.
  ApiNames StreamMethods;
  // The functions that say whether, or how many, CUDA devices are there,
  // by qualified name.
  std::vector<std::pair<llvm::StringRef, AvailabilityKind>> AvailabilityChecks;
  // The call that waits for every CUDA stream, as users write it.
  llvm::StringRef CudaSynchronize;
  // How a fix-it writes the API (api.def's PL_API_FIX_SPELLING).
  struct {
    llvm::StringRef Namespace, CudaConstant, DeviceClass, OptionsClass, DeviceOptions,
        OptionsDevice, OptionsDtype, DeviceRead, PinMemory;
  } FixSpelling;
};

const ProfileTable &profileTable(ApiProfile Profile);

// The profile whose API namespaces hold D (its outermost namespace), if any.
std::optional<ApiProfile> profileDeclaring(const clang::Decl &D);

// One name of a profile's tables and its model.
struct ApiLine {
  ApiNames ProfileTable::*Table;
  llvm::StringRef Name;
  ApiCall Call;
};

// The libtorch profile is the op catalogue (ops.def, the pl API), then
// libtorch's names the catalogue does not have, then the catalogue's names
// whose libtorch model differs from the catalogue's; each name once.
llvm::ArrayRef<ApiLine> libtorchOnlyLines();
llvm::ArrayRef<ApiLine> libtorchOverrides();

// What the analysis is configured with: the checks' options that change
// what it computes (so that every check sharing one analysis agrees on them).
struct AnalysisOptions {
  ApiProfile Profile = ApiProfile::Auto;
  // The user's own functions that tell whether CUDA is there (`bool
  // has_gpu()`) or how many devices it has (`int gpu_count()`), by name or
  // qualified name.
  std::vector<std::string> AvailabilityChecks;
  // gtest tests that a test runner runs only where GPUs are, by the end of
  // their name, with how many GPUs (`_CUDA=1;_MultiCUDA=2`, PyTorch's
  // `--gtest_filter=-*_CUDA` convention): their bodies are guarded.
  std::vector<std::string> GpuTestSuffixes;

  friend bool operator==(const AnalysisOptions &, const AnalysisOptions &) = default;
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
  // A std::tuple or std::pair.
  static bool isTuple(clang::QualType Type);
  // A std::optional (c10::optional is one).
  static bool isOptional(clang::QualType Type);
  // A std container whose elements lie in ordinary (pageable) host memory
  // that it owns (`std::vector<float>`, `std::array`), not one given an
  // allocator of its own (which may pin).
  static bool ownsPageableMemory(clang::QualType Type);
  // Whether Method gives the address of such a container's elements (`data()`).
  static bool givesBufferAddress(const clang::CXXMethodDecl &Method);
  // Whether Function page-locks the host memory its first argument
  // addresses (`cudaHostRegister`).
  static bool pinsHostMemory(const clang::FunctionDecl &Function);
  // An optimizer (torch::optim::Adam, ...), which changes the tensors it
  // holds in place on every step().
  bool isOptimizer(clang::QualType Type) const;
  // The arguments an optimizer is made from, in any spelling: `SGD(params,
  // lr)`, `std::make_unique<SGD>(params, lr)`, `std::make_shared<Adam>(...)`,
  // `new Adam(...)`; nullopt when E makes no optimizer.
  std::optional<llvm::ArrayRef<const clang::Expr *>>
  optimizerArguments(const clang::Expr &E) const;
  // A data loader, whose range-for gives batches loaded on the host.
  bool isDataLoader(clang::QualType Type) const;
  // A dataset (torch::data::datasets::MNIST, a user's Dataset), which loads
  // its tensors on the host.
  bool isDataset(clang::QualType Type) const;
  // What Call does: a method by the kind of its object and its name, a free
  // function of the API or of std by its name.
  ApiCall classifyCall(const clang::CallExpr &Call) const;
  // Whether a transfer or copy_ is asked not to block: the argument of its
  // `non_blocking` parameter is written true.
  bool isNonBlocking(const clang::CallExpr &Call) const;
  // The call that waits for every CUDA stream (`torch::cuda::synchronize()`)
  // in the one profile in force; empty when two are.
  llvm::StringRef cudaSynchronizeCall() const;
  // What Method does when called on an object of its class (a module's
  // `forward`, an optimizer's `step`).
  ApiCall classifyMethod(const clang::CXXMethodDecl &Method) const;
  // A free function of the API (OtherApi when unlisted) or of std.
  ApiCall classifyFunction(const clang::FunctionDecl &Function) const;
  // A function of namespace std that holds or passes on tensors (std::move,
  // make_tuple, ...), by its name alone; Unmodelled for the others.
  static ApiCall stdFunction(const clang::FunctionDecl &Function);
  // Whether Factory's values depend on the device it makes its tensor on:
  // a random factory of libtorch (`randn`), which draws from that device's
  // generator, so a seeded program draws other numbers on another device.
  static bool drawsFromDeviceGenerator(const clang::FunctionDecl &Factory);
  // The name of the module method that applies a module (`forward`).
  static llvm::StringRef moduleForwardName();
  // Whether Function tells if, or how many, CUDA devices are there: the
  // library's checks, and the user's listed in AnalysisOptions.
  std::optional<AvailabilityKind> availabilityCheck(const clang::FunctionDecl &Function) const;
  // The device kind an enumerator of a DeviceType enum names (kCUDA, CUDA, ...).
  static std::optional<DeviceKind> deviceKindOfEnumerator(llvm::StringRef Name);
  // The device kind a constant of a DeviceType enum names (`kCUDA`, an
  // enumerator or a constant holding one); nullopt for anything else.
  static std::optional<DeviceKind> deviceKindOfConstant(const clang::Expr &E,
                                                        const clang::ASTContext &Context);
  // One entry of GpuTestSuffixes (`_CUDA`, `_MultiCUDA=2`): the suffix and
  // its number of GPUs; nullopt when malformed.
  static std::optional<std::pair<std::string, unsigned>> parseGpuTestSuffix(llvm::StringRef Entry);
  // How many GPUs the test runner ensures when it runs Function: the body
  // of a gtest test whose name ends with a suffix of GpuTestSuffixes; 0
  // for any other function.
  unsigned devicesEnsuredByTestName(const clang::FunctionDecl &Function) const;

private:
  ValueKind classifyRecord(const clang::CXXRecordDecl &Record) const;
  ValueKind classifyByName(llvm::StringRef QualifiedName) const;
  bool isApiNamespace(llvm::StringRef Name) const;
  // Whether D is declared in one of the API's namespaces (its outermost).
  bool isInApiNamespace(const clang::Decl &D) const;
  bool holdsTensors(clang::QualType Type) const;
  bool hasTrackedField(const clang::CXXRecordDecl &Record) const;
  bool isApiRecord(const clang::CXXRecordDecl &Record) const;
  bool isLossWeightSetter(const clang::CXXMethodDecl &Method) const;
  // The class behind a module type, through holders and shared_ptr.
  const clang::CXXRecordDecl *moduleClass(clang::QualType Type) const;
  // The name tables of the profiles in force, looked up in order.
  ApiCall lookup(ApiNames ProfileTable::*Table, llvm::StringRef Name) const;

  std::vector<ApiProfile> Profiles;
  std::vector<std::string> UserAvailabilityChecks;
  std::vector<std::pair<std::string, unsigned>> GpuTestSuffixes;
  mutable llvm::DenseMap<const clang::Type *, ValueKind> TypeCache;
};

} // namespace placelint::analysis
