// The API model's type classifier: what a type is to the analysis (a
// tensor, a device, options, a module, a list or aggregate of tracked
// values), seen through std's holders, and the kinds of module, optimizer
// and dataset the flow treats apart. Its names are api.def's.
#include "placelint/analysis/ApiModel.h"

#include "ApiSpellings.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

ValueKind ApiModel::classifyByName(llvm::StringRef QualifiedName) const {
  for (ApiProfile Profile : Profiles) {
    const ProfileTable &Table = profileTable(Profile);
    auto Listed = [&](const std::vector<llvm::StringRef> &Names) {
      return llvm::is_contained(Names, QualifiedName);
    };
    if (Listed(Table.TensorClasses))
      return ValueKind::Tensor;
    if (Listed(Table.DeviceClasses))
      return ValueKind::Device;
    if (Listed(Table.OptionsClasses))
      return ValueKind::TensorOptions;
    if (Listed(Table.ModuleClasses))
      return ValueKind::Module;
  }
  return ValueKind::Other;
}

namespace {

// std's smart pointers and optional: seen through, as what they hold.
bool isPointerLike(llvm::StringRef Template) {
  std::optional<StdHolder> Holder = stdHolder(Template);
  return Holder == StdHolder::Pointer || Holder == StdHolder::Optional;
}

// std's containers, and which template argument is the element: a map's
// elements are its mapped values.
std::optional<unsigned> containerElement(llvm::StringRef Template) {
  std::optional<StdHolder> Holder = stdHolder(Template);
  if (Holder == StdHolder::Sequence)
    return 0;
  if (Holder == StdHolder::Map)
    return 1;
  return std::nullopt;
}

} // namespace

ValueKind ApiModel::classifyRecord(const CXXRecordDecl &Record) const {
  ValueKind Kind = classifyByName(Record.getQualifiedNameAsString());
  if (Kind != ValueKind::Other)
    return Kind;
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition || Definition->isLambda())
    return ValueKind::Other;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Definition);
      Spec && Spec->getTemplateArgs().size() >= 1) {
    std::string Template = Spec->getQualifiedNameAsString();
    auto TypeArgument = [&](unsigned Index) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      return Index < Args.size() && Args[Index].getKind() == TemplateArgument::Type
                 ? Args[Index].getAsType()
                 : QualType();
    };
    // std::shared_ptr<Net> is a module; std::optional<Device> a Device.
    if (isPointerLike(Template))
      return classify(TypeArgument(0));
    // A container of tracked values (std::vector<Tensor>, a map of tensors,
    // a vector of batches or of IValues) is one value, its elements'.
    if (std::optional<unsigned> Element = containerElement(Template)) {
      QualType ElementType = TypeArgument(*Element);
      return classify(ElementType) != ValueKind::Other || holdsTensors(ElementType)
                 ? ValueKind::TensorList
                 : ValueKind::Other;
    }
    // A tuple or pair: of tensors (what an LSTM takes and returns) a list
    // of them, of other tracked values an aggregate.
    if (stdHolder(Template) == StdHolder::Tuple) {
      ValueKind Found = ValueKind::Other;
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
        llvm::ArrayRef<TemplateArgument> Args =
            Arg.getKind() == TemplateArgument::Pack ? Arg.pack_elements() : llvm::ArrayRef(Arg);
        for (const TemplateArgument &Each : Args) {
          ValueKind Element = Each.getKind() == TemplateArgument::Type
                                  ? classify(Each.getAsType())
                                  : ValueKind::Other;
          if (Element == ValueKind::Tensor || Element == ValueKind::TensorList)
            return ValueKind::TensorList;
          if (Element != ValueKind::Other)
            Found = ValueKind::Aggregate;
        }
      }
      return Found;
    }
  }
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (const CXXRecordDecl *BaseRecord = Base.getType()->getAsCXXRecordDecl()) {
      ValueKind BaseKind = classifyRecord(*BaseRecord);
      if (BaseKind == ValueKind::Tensor || BaseKind == ValueKind::Module)
        return BaseKind;
    }
  if (Definition->isInStdNamespace())
    return ValueKind::Other;
  // A struct with tracked fields (a batch, a config holding a Device).
  bool HasTrackedField = false;
  Definition->forallBases([&](const CXXRecordDecl *Base) {
    HasTrackedField = HasTrackedField || hasTrackedField(*Base);
    return true;
  });
  return HasTrackedField || hasTrackedField(*Definition) ? ValueKind::Aggregate
                                                          : ValueKind::Other;
}

bool ApiModel::hasTrackedField(const CXXRecordDecl &Record) const {
  return llvm::any_of(Record.fields(), [&](const FieldDecl *Field) {
    return classify(Field->getType()) != ValueKind::Other;
  });
}

ValueKind ApiModel::classify(QualType Type) const {
  if (Type.isNull())
    return ValueKind::Other;
  const clang::Type *Canonical =
      Type.getNonReferenceType().getCanonicalType().getTypePtr();
  auto Cached = TypeCache.find(Canonical);
  if (Cached != TypeCache.end())
    return Cached->second;
  ValueKind Kind = ValueKind::Other;
  if (const auto *Enum = Canonical->getAs<EnumType>()) {
    std::string Name = Enum->getDecl()->getQualifiedNameAsString();
    for (ApiProfile Profile : Profiles)
      if (llvm::is_contained(profileTable(Profile).DeviceTypeEnums, Name))
        Kind = ValueKind::DeviceType;
  } else if (const CXXRecordDecl *Record = Canonical->getAsCXXRecordDecl()) {
    // Other until known: a struct that holds a pointer to its own type.
    TypeCache[Canonical] = ValueKind::Other;
    if (!Canonical->isDependentType())
      Kind = classifyRecord(*Record);
  }
  TypeCache[Canonical] = Kind;
  return Kind;
}

bool ApiModel::holdsTensors(QualType Type) const {
  const CXXRecordDecl *Record = Type.getCanonicalType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  std::string Name = Record->getQualifiedNameAsString();
  for (ApiProfile Profile : Profiles)
    if (llvm::is_contained(profileTable(Profile).TensorHolderClasses, Name))
      return true;
  return false;
}
const CXXRecordDecl *ApiModel::libraryModule(QualType Type) const {
  const CXXRecordDecl *Record = moduleClass(Type);
  return Record && isApiRecord(*Record) ? Record : nullptr;
}

const CXXRecordDecl *ApiModel::userModule(QualType Type) const {
  const CXXRecordDecl *Record = moduleClass(Type);
  return Record && !isApiRecord(*Record) ? Record : nullptr;
}

bool ApiModel::isApiRecord(const CXXRecordDecl &Record) const {
  // Library modules live in the API namespaces (torch::nn, pl::nn).
  return isInApiNamespace(Record);
}

const CXXRecordDecl *ApiModel::moduleClass(QualType Type) const {
  if (classify(Type) != ValueKind::Module)
    return nullptr;
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  // A holder (ModuleHolder<Impl>, or a TORCH_MODULE class derived from one)
  // or a shared_ptr<Impl>: the Impl is what holds the parameters.
  for (int Depth = 0; Record && Depth < 4; ++Depth) {
    const CXXRecordDecl *Definition = Record->getDefinition();
    if (!Definition)
      return nullptr;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Definition);
        Spec && Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
        (hasApiName(ApiNameRole::ModuleHolder, Spec->getName()) ||
         stdHolder(Spec->getQualifiedNameAsString()) == StdHolder::Pointer)) {
      Record = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
      continue;
    }
    if (Definition->getNumBases() == 1 &&
        !hasApiName(ApiNameRole::ModuleBase, Definition->getName())) {
      const CXXRecordDecl *Base = Definition->bases_begin()->getType()->getAsCXXRecordDecl();
      if (const auto *BaseSpec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Base);
          BaseSpec && hasApiName(ApiNameRole::ModuleHolder, BaseSpec->getName())) {
        Record = Base;
        continue;
      }
    }
    break;
  }
  return Record;
}

namespace {

// `ReLU` for `ReLUImpl`, which libtorch's holders wrap.
llvm::StringRef moduleName(const CXXRecordDecl &Record) {
  return withoutApiSuffix(ApiNameRole::ModuleImpl, Record.getName());
}

} // namespace
bool ApiModel::isLossModule(QualType Type) const {
  const CXXRecordDecl *Record = libraryModule(Type);
  return Record && hasApiName(ApiNameRole::LossModule, moduleName(*Record));
}

bool ApiModel::isStatelessModule(QualType Type) const {
  const CXXRecordDecl *Record = libraryModule(Type);
  if (!Record)
    return false;
  llvm::StringRef Name = moduleName(*Record);
  return hasApiName(ApiNameRole::StatelessModule, Name) &&
         !hasApiName(ApiNameRole::StatefulModule, Name);
}

bool ApiModel::isOptimizer(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->getDefinition())
    return false;
  auto InOptim = [&](const CXXRecordDecl *R) {
    std::string Name = R->getQualifiedNameAsString();
    for (ApiProfile Profile : Profiles)
      for (llvm::StringRef Namespace : profileTable(Profile).ApiNamespaces)
        if (llvm::StringRef(Name).starts_with(
                (Namespace + "::" + apiName(ApiNameRole::OptimizerSpace) + "::").str()))
          return true;
    return false;
  };
  if (InOptim(Record))
    return true;
  return !Record->getDefinition()->forallBases(
      [&](const CXXRecordDecl *Base) { return !InOptim(Base); });
}

std::optional<llvm::ArrayRef<const Expr *>>
ApiModel::optimizerArguments(const Expr &E) const {
  const Expr *Made = E.IgnoreImplicit()->IgnoreParens();
  if (const auto *New = dyn_cast<CXXNewExpr>(Made))
    Made = New->getConstructExpr();
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Made);
      Construct && isOptimizer(Construct->getType()))
    return llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  // std::make_unique<SGD>(params, lr): the smart pointer's pointee.
  const auto *Call = dyn_cast_or_null<CallExpr>(Made);
  if (!Call || classifyCall(*Call).Kind != CallKind::OptimizerConstruction)
    return std::nullopt;
  return llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
}

bool ApiModel::isTuple(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && stdHolder(Record->getQualifiedNameAsString()) == StdHolder::Tuple;
}

bool ApiModel::isOptional(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && stdHolder(Record->getQualifiedNameAsString()) == StdHolder::Optional;
}

bool ApiModel::ownsPageableMemory(QualType Type) {
  const auto *Container = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Container ||
      !hasApiName(ApiNameRole::HostBuffer,
                  Container->getSpecializedTemplate()->getQualifiedNameAsString()))
    return false;
  // Its elements come from its allocator, as the standard names it in every
  // allocator-aware container; one without (std::array) holds them inside.
  for (const Decl *Member : Container->decls())
    if (const auto *Alias = dyn_cast<TypedefNameDecl>(Member);
        Alias && Alias->getName() == "allocator_type") {
      const CXXRecordDecl *Allocator = Alias->getUnderlyingType()->getAsCXXRecordDecl();
      return Allocator &&
             hasApiName(ApiNameRole::PageableAllocator, Allocator->getQualifiedNameAsString());
    }
  return true;
}

bool ApiModel::givesBufferAddress(const CXXMethodDecl &Method) {
  return Method.getIdentifier() && hasApiName(ApiNameRole::HostBufferData, Method.getName()) &&
         ownsPageableMemory(QualType(Method.getParent()->getTypeForDecl(), 0));
}

bool ApiModel::pinsHostMemory(const FunctionDecl &Function) {
  return Function.getIdentifier() && hasApiName(ApiNameRole::PinsHostMemory, Function.getName());
}

bool ApiModel::isDataLoader(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && hasApiName(ApiNameRole::DataLoader, Record->getName());
}

bool ApiModel::isDataset(QualType Type) const {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  auto Named = [](const CXXRecordDecl *R) {
    return hasApiName(ApiNameRole::Dataset, R->getQualifiedNameAsString());
  };
  return Named(Record) || !Record->getDefinition()->forallBases([&](const CXXRecordDecl *Base) {
    return !Named(Base);
  });
}

} // namespace placelint::analysis
