// The API model's device facts: the availability checks that say whether,
// or how many, CUDA devices are there; the gtest tests a runner runs only
// where GPUs are; the device kinds that DeviceType constants name. Their
// names are api.def's and devices.def's.
#include "placelint/analysis/ApiModel.h"

#include "ApiSpellings.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace placelint::analysis {

using namespace clang;

std::optional<AvailabilityKind>
ApiModel::availabilityCheck(const FunctionDecl &Function) const {
  if (!Function.getIdentifier())
    return std::nullopt;
  std::string Qualified = Function.getQualifiedNameAsString();
  for (ApiProfile Profile : Profiles)
    for (const auto &[Listed, Kind] : profileTable(Profile).AvailabilityChecks)
      if (Listed == Qualified)
        return Kind;
  llvm::StringRef Name = Function.getName();
  for (llvm::StringRef Listed : UserAvailabilityChecks) {
    Listed.consume_front("::");
    if (Listed == Qualified || Listed == Name) {
      QualType Result = Function.getReturnType();
      return Result->isBooleanType() || !Result->isIntegerType() ? AvailabilityKind::Flag
                                                                 : AvailabilityKind::Count;
    }
  }
  return std::nullopt;
}

std::optional<DeviceKind> ApiModel::deviceKindOfConstant(const Expr &E,
                                                         const ASTContext &Context) {
  const auto *Enum = E.getType()->getAs<EnumType>();
  Expr::EvalResult Result;
  if (!Enum || E.isValueDependent() || !E.EvaluateAsInt(Result, Context))
    return std::nullopt;
  for (const EnumConstantDecl *Enumerator : Enum->getDecl()->enumerators())
    if (llvm::APSInt::compareValues(Enumerator->getInitVal(), Result.Val.getInt()) == 0)
      return deviceKindOfEnumerator(Enumerator->getName());
  return std::nullopt;
}

unsigned ApiModel::devicesEnsuredByTestName(const FunctionDecl &Function) const {
  // TEST(Suite, Name) defines `Suite_Name_Test::TestBody()`.
  const auto *Method = dyn_cast<CXXMethodDecl>(&Function);
  if (GpuTestSuffixes.empty() || !Method || !Method->getIdentifier() ||
      Method->getName() != apiName(ApiNameRole::TestBody) ||
      !Method->getParent()->getIdentifier())
    return 0;
  llvm::StringRef Test = Method->getParent()->getName();
  if (!Test.consume_back(apiName(ApiNameRole::TestClass)))
    return 0;
  unsigned Devices = 0;
  for (const auto &[Suffix, Count] : GpuTestSuffixes)
    if (Test.ends_with(Suffix))
      Devices = std::max(Devices, Count);
  return Devices;
}

std::optional<DeviceKind> ApiModel::deviceKindOfEnumerator(llvm::StringRef Name) {
  // devices.def's enumerators (CPU, CUDA), or their constants (kCPU, kCUDA).
  llvm::StringRef Constant = Name;
  bool IsConstant = Constant.consume_front(apiName(ApiNameRole::DeviceConstant));
  for (const DeviceTypeEntry &Entry : kDeviceTypes)
    if (Name == llvm::StringRef(Entry.enumerator) ||
        (IsConstant && Constant == llvm::StringRef(Entry.enumerator)))
      return Entry.kind;
  return std::nullopt;
}

} // namespace placelint::analysis
