// The API model: the profiles' tables, built from the catalogues (ops.def,
// api.def), and what a call of the API does (classifyCall). The type
// classifier is ApiTypes.cpp; availability checks and device constants
// ApiDevices.cpp.
#include "placelint/analysis/ApiModel.h"

#include "ApiSpellings.h"
#include "OpCatalogue.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace placelint::analysis {

using namespace clang;

namespace {

ApiCall call(CallKind Kind, ResultRank Rank = ResultRank::Broadcast) { return {Kind, Rank}; }

enum class ApiCallProfile { Shared, LibtorchOnly, LibtorchOverride };

// An api.def PL_API_CALL line's table: what the name is called on.
enum class ApiCallTable { Free, Tensor, Options, Module, Optimizer, Stream, Std, List };

struct ApiCallLine {
  ApiCallProfile Profile;
  ApiCallTable Table;
  llvm::StringRef Name;
  ApiCall Call;
};

ApiCall modelled(CallKind Kind, ResultRank Rank, bool InPlace, bool Strict) {
  ApiCall Call{Kind, Rank};
  Call.InPlace = InPlace;
  Call.AdmitsCpuScalar = !Strict;
  return Call;
}

constexpr bool PlainIsInPlace = false, InPlaceIsInPlace = true, StrictIsInPlace = false;
constexpr bool PlainIsStrict = false, InPlaceIsStrict = false, StrictIsStrict = true;

const ApiCallLine ApiCallLines[] = {
#define PL_API_CALL(Profile, Table, Name, Kind, Rank, Model)                                       \
  {ApiCallProfile::Profile, ApiCallTable::Table, Name,                                             \
   modelled(CallKind::Kind, ResultRank::Rank, Model##IsInPlace, Model##IsStrict)},
#include <placelint/api.def>
};

ApiNames ProfileTable::*profileTableOf(ApiCallTable Table) {
  switch (Table) {
  case ApiCallTable::Free:
    return &ProfileTable::FreeFunctions;
  case ApiCallTable::Tensor:
    return &ProfileTable::TensorMethods;
  case ApiCallTable::Options:
    return &ProfileTable::OptionsMethods;
  case ApiCallTable::Module:
    return &ProfileTable::ModuleMethods;
  case ApiCallTable::Optimizer:
    return &ProfileTable::OptimizerMethods;
  case ApiCallTable::Stream:
    return &ProfileTable::StreamMethods;
  case ApiCallTable::Std:
  case ApiCallTable::List:
    break;
  }
  return nullptr; // std's tables are every profile's (stdFunctions, listMethods)
}

std::vector<ApiLine> linesOf(ApiCallProfile Profile) {
  std::vector<ApiLine> Lines;
  for (const ApiCallLine &Line : ApiCallLines)
    if (Line.Profile == Profile)
      if (ApiNames ProfileTable::*Table = profileTableOf(Line.Table))
        Lines.push_back({Table, Line.Name, Line.Call});
  return Lines;
}

ApiNames namesOf(ApiCallTable Table) {
  ApiNames Names;
  for (const ApiCallLine &Line : ApiCallLines)
    if (Line.Table == Table)
      Names[Line.Name] = Line.Call;
  return Names;
}

// A profile's classes, namespaces, availability checks and synchronisation
// (api.def), the op catalogue, then its own lines.
ProfileTable makeProfile(ApiProfile Profile, llvm::StringRef Name) {
  ProfileTable Table;
  Table.Name = Name;
  std::vector<llvm::StringRef> ProfileTable::*Classes[] = {
      &ProfileTable::TensorClasses, &ProfileTable::DeviceClasses,
      &ProfileTable::DeviceTypeEnums, &ProfileTable::OptionsClasses,
      &ProfileTable::ModuleClasses, &ProfileTable::TensorHolderClasses};
  enum ClassRole { Tensor, Device, DeviceTypeEnum, Options, Module, TensorHolder };
#define PL_API_CLASS(In, Role, ClassName)                                                          \
  if (ApiProfile::In == Profile)                                                                   \
    (Table.*Classes[Role]).push_back(ClassName);
#define PL_API_NAMESPACE(In, Namespace)                                                            \
  if (ApiProfile::In == Profile)                                                                   \
    Table.ApiNamespaces.push_back(Namespace);
#define PL_API_AVAILABILITY(In, Kind, Function)                                                    \
  if (ApiProfile::In == Profile)                                                                   \
    Table.AvailabilityChecks.push_back({Function, AvailabilityKind::Kind});
#define PL_API_SYNCHRONIZE_ALL(In, Spelling)                                                       \
  if (ApiProfile::In == Profile)                                                                   \
    Table.CudaSynchronize = Spelling;
#define PL_API_FIX_SPELLING(In, Role, Text)                                                        \
  if (ApiProfile::In == Profile)                                                                   \
    Table.FixSpelling.Role = Text;
#include <placelint/api.def>
  addCatalogueOps(Table);
  if (Profile == ApiProfile::Libtorch) {
    for (const ApiLine &Line : libtorchOnlyLines())
      (Table.*Line.Table)[Line.Name] = Line.Call;
    for (const ApiLine &Line : libtorchOverrides())
      (Table.*Line.Table)[Line.Name] = Line.Call;
  }
  for (const ApiLine &Line : linesOf(ApiCallProfile::Shared))
    (Table.*Line.Table)[Line.Name] = Line.Call;
  return Table;
}

// std's facilities that hold or pass on tensors, for every profile.
const ApiNames &stdFunctions() {
  static const ApiNames Names = namesOf(ApiCallTable::Std);
  return Names;
}

// The methods of a container of tracked values.
const ApiNames &listMethods() {
  static const ApiNames Names = namesOf(ApiCallTable::List);
  return Names;
}

} // namespace

llvm::ArrayRef<ApiLine> libtorchOnlyLines() {
  static const std::vector<ApiLine> Lines = linesOf(ApiCallProfile::LibtorchOnly);
  return Lines;
}

llvm::ArrayRef<ApiLine> libtorchOverrides() {
  static const std::vector<ApiLine> Lines = linesOf(ApiCallProfile::LibtorchOverride);
  return Lines;
}

const ProfileTable &profileTable(ApiProfile Profile) {
  static const ProfileTable Pl = makeProfile(ApiProfile::Pl, "pl");
  static const ProfileTable Libtorch = makeProfile(ApiProfile::Libtorch, "libtorch");
  return Profile == ApiProfile::Libtorch ? Libtorch : Pl;
}

namespace {

// The outermost namespace enclosing D (torch for torch::nn::functional::relu).
const NamespaceDecl *outermostNamespace(const Decl &D) {
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *Ctx = D.getDeclContext(); Ctx && !Ctx->isTranslationUnit();
       Ctx = Ctx->getParent())
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(Ctx); Namespace && !Namespace->isInline())
      Outermost = Namespace;
  return Outermost;
}

} // namespace

std::optional<ApiProfile> profileDeclaring(const Decl &D) {
  const NamespaceDecl *Outermost = outermostNamespace(D);
  if (!Outermost)
    return std::nullopt;
  for (ApiProfile Profile : {ApiProfile::Pl, ApiProfile::Libtorch})
    if (llvm::is_contained(profileTable(Profile).ApiNamespaces, Outermost->getName()))
      return Profile;
  return std::nullopt;
}

namespace {

// Whether the unit declares the profile's tensor class (e.g. `pl::Tensor`).
bool declaresTensorClass(const ASTContext &Context, const ProfileTable &Table) {
  for (llvm::StringRef Qualified : Table.TensorClasses) {
    auto [Namespace, Name] = Qualified.split("::");
    auto &Idents = const_cast<ASTContext &>(Context).Idents;
    for (const NamedDecl *NS :
         Context.getTranslationUnitDecl()->lookup(&Idents.get(Namespace))) {
      const auto *Space = dyn_cast<NamespaceDecl>(NS);
      if (Space && !Space->lookup(&Idents.get(Name)).empty())
        return true;
    }
  }
  return false;
}

} // namespace

ApiModel::ApiModel(const ASTContext &Context, const AnalysisOptions &Options)
    : UserAvailabilityChecks(Options.AvailabilityChecks) {
  for (llvm::StringRef Entry : Options.GpuTestSuffixes)
    if (auto Parsed = parseGpuTestSuffix(Entry))
      GpuTestSuffixes.push_back(std::move(*Parsed));
  ApiProfile Requested = Options.Profile;
  if (Requested != ApiProfile::Auto) {
    Profiles.push_back(Requested);
    return;
  }
  for (ApiProfile Candidate : {ApiProfile::Pl, ApiProfile::Libtorch})
    if (declaresTensorClass(Context, profileTable(Candidate)))
      Profiles.push_back(Candidate);
  if (Profiles.empty()) // nothing declared: nothing will classify anyway
    Profiles = {ApiProfile::Pl, ApiProfile::Libtorch};
}

bool ApiModel::isApiNamespace(llvm::StringRef Name) const {
  for (ApiProfile Profile : Profiles)
    if (llvm::is_contained(profileTable(Profile).ApiNamespaces, Name))
      return true;
  return false;
}

ApiCall ApiModel::lookup(ApiNames ProfileTable::*Table, llvm::StringRef Name) const {
  for (ApiProfile Profile : Profiles) {
    const ApiNames &Names = profileTable(Profile).*Table;
    if (auto It = Names.find(Name); It != Names.end())
      return It->second;
  }
  return {};
}

namespace {

// The pointee of `std::make_unique<T>` / `make_shared<T>`'s result.
QualType smartPointee(QualType Type) {
  const auto *Smart =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(Type->getAsCXXRecordDecl());
  if (!Smart || Smart->getTemplateArgs().size() < 1 ||
      Smart->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {};
  return Smart->getTemplateArgs()[0].getAsType();
}

} // namespace

bool ApiModel::isInApiNamespace(const Decl &D) const {
  // The outermost enclosing namespace decides (torch::nn::functional::relu
  // belongs to torch).
  const NamespaceDecl *Outermost = outermostNamespace(D);
  return Outermost && isApiNamespace(Outermost->getName());
}

ApiCall ApiModel::classifyFunction(const FunctionDecl &Function) const {
  if (!Function.getIdentifier())
    return {};
  llvm::StringRef Name = Function.getName();
  if (Function.isInStdNamespace()) {
    ApiCall Std = stdFunction(Function);
    if (Std.Kind == CallKind::MakeShared && isOptimizer(smartPointee(Function.getReturnType())))
      Std.Kind = CallKind::OptimizerConstruction;
    return Std;
  }
  if (!isInApiNamespace(Function))
    return {};
  if (ApiCall Listed = lookup(&ProfileTable::FreeFunctions, Name); Listed.isModelled())
    return Listed;
  if (hasApiName(ApiNameRole::LossFunction, Name))
    return call(CallKind::Loss, ResultRank::ZeroDim);
  return call(CallKind::OtherApi, ResultRank::Unknown);
}

ApiCall ApiModel::stdFunction(const FunctionDecl &Function) {
  if (!Function.getIdentifier())
    return {};
  return stdFunctions().lookup(Function.getName());
}

bool ApiModel::drawsFromDeviceGenerator(const FunctionDecl &Factory) {
  return Factory.getIdentifier() && hasApiName(ApiNameRole::RandomFactory, Factory.getName()) &&
         profileDeclaring(Factory) == ApiProfile::Libtorch;
}

llvm::StringRef ApiModel::moduleForwardName() {
  for (const ApiCallLine &Line : ApiCallLines)
    if (Line.Table == ApiCallTable::Module && Line.Call.Kind == CallKind::ModuleForward)
      return Line.Name;
  return {};
}

// A loss's options: `CrossEntropyLossOptions().weight(w)`.
bool ApiModel::isLossWeightSetter(const CXXMethodDecl &Method) const {
  return hasApiName(ApiNameRole::LossOptions, Method.getParent()->getName()) &&
         Method.getIdentifier() && hasApiName(ApiNameRole::LossWeightSetter, Method.getName()) &&
         Method.getNumParams() == 1 &&
         isTensor(Method.getParamDecl(0)->getType());
}

ApiCall ApiModel::classifyMethod(const CXXMethodDecl &Method) const {
  if (!Method.getIdentifier())
    return {};
  llvm::StringRef Name = Method.getName();
  QualType Object(Method.getParent()->getTypeForDecl(), 0);
  switch (classify(Object)) {
  case ValueKind::Tensor: {
    if (ApiCall Listed = lookup(&ProfileTable::TensorMethods, Name); Listed.isModelled())
      return Listed;
    // A method the tables do not list: by the API's naming rule, a trailing
    // underscore writes in place.
    ApiCall Other = call(CallKind::OtherApi, ResultRank::Unknown);
    Other.InPlace = hasApiName(ApiNameRole::InPlaceMethod, Name);
    return Other;
  }
  case ValueKind::TensorOptions:
    return lookup(&ProfileTable::OptionsMethods, Name);
  case ValueKind::Module: {
    ApiCall Listed = lookup(&ProfileTable::ModuleMethods, Name);
    // A container's and a holder's methods are the library's: a user's
    // module may have a `get` or an `insert` of its own.
    if ((Listed.Kind == CallKind::ModuleInsert || Listed.Kind == CallKind::ModuleHandle) &&
        !isApiRecord(*Method.getParent()))
      return {};
    return Listed;
  }
  case ValueKind::TensorList:
    if (auto It = listMethods().find(Name); It != listMethods().end())
      return It->second;
    return {};
  case ValueKind::Aggregate: {
    // The library's datasets hold their tensors (`MNIST::targets()`),
    // loaded on the host.
    if (isDataset(Object) && isApiRecord(*Method.getParent()))
      return call(CallKind::DatasetLoad, ResultRank::NotZeroDim);
    if (isLossWeightSetter(Method)) // options that hold the weight they set
      return call(CallKind::ModuleOptionWeight);
    // A batch's own `Batch to(Device) const`: a moved copy of its object.
    ApiCall Listed = lookup(&ProfileTable::TensorMethods, Name);
    QualType Result = Method.getReturnType();
    if (Listed.Kind == CallKind::Transfer && !Result->isVoidType() &&
        !Result->isReferenceType() && classify(Result) != ValueKind::Other)
      return Listed;
    return {};
  }
  case ValueKind::Device:
  case ValueKind::DeviceType:
    return {};
  case ValueKind::Other:
    break;
  }
  if (isOptimizer(Object))
    return lookup(&ProfileTable::OptimizerMethods, Name);
  if (isApiRecord(*Method.getParent()))
    if (ApiCall Stream = lookup(&ProfileTable::StreamMethods, Name); Stream.isModelled())
      return Stream;
  // Whatever a dataset's method returns, it loaded on the host.
  if (isDataset(Object))
    return call(CallKind::DatasetLoad, ResultRank::NotZeroDim);
  if (isLossWeightSetter(Method))
    return call(CallKind::ModuleOptionWeight);
  return {};
}

ApiCall ApiModel::classifyCall(const CallExpr &Call) const {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    return Method ? classifyMethod(*Method) : ApiCall();
  }
  if (isa<CXXOperatorCallExpr>(Call))
    return {};
  const FunctionDecl *Callee = Call.getDirectCallee();
  return Callee ? classifyFunction(*Callee) : ApiCall();
}

llvm::StringRef ApiModel::cudaSynchronizeCall() const {
  return Profiles.size() == 1 ? profileTable(Profiles.front()).CudaSynchronize : "";
}

bool ApiModel::isNonBlocking(const CallExpr &Call) const {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return false;
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = 0; I < Callee->getNumParams() && I + Offset < Call.getNumArgs(); ++I) {
    const ParmVarDecl *Param = Callee->getParamDecl(I);
    const Expr *Arg = Call.getArg(I + Offset);
    if (!Param->getIdentifier() || Param->getName() != apiName(ApiNameRole::NonBlocking) ||
        isa<CXXDefaultArgExpr>(Arg))
      continue;
    bool Value = false;
    return !Arg->isValueDependent() && Arg->EvaluateAsBooleanCondition(Value, Callee->getASTContext()) && Value;
  }
  return false;
}

} // namespace placelint::analysis
