#include "flow/AbstractValue.h"

#include <algorithm>

namespace placelint::analysis {

namespace {

bool pathLess(const AccessPath &L, const AccessPath &R) {
  llvm::ArrayRef<AccessStep> A = L.steps(), B = R.steps();
  return std::lexicographical_compare(A.begin(), A.end(), B.begin(), B.end());
}

} // namespace

AbstractValue AbstractValue::withParts(ValueFact Whole, llvm::SmallVector<Part, 0> Parts) {
  AbstractValue Value(std::move(Whole));
  Value.Parts = std::move(Parts);
  llvm::sort(Value.Parts, [](const Part &L, const Part &R) { return pathLess(L.first, R.first); });
  return Value;
}

const ValueFact &AbstractValue::at(const AccessPath &Relative) const {
  for (AccessPath Path = Relative;; Path = Path.parent()) {
    auto It = llvm::find_if(Parts, [&](const Part &P) { return P.first == Path; });
    if (It != Parts.end())
      return It->second;
    if (Path.depth() == 0)
      return Whole;
  }
}

AbstractValue AbstractValue::below(const AccessPath &Relative) const {
  if (Relative.depth() == 0)
    return *this;
  AbstractValue Result(at(Relative));
  for (const auto &[Path, Fact] : Parts)
    if (Relative.covers(Path) && Path != Relative)
      Result.Parts.push_back({Relative.relativeOf(Path), Fact});
  return Result;
}

void AbstractValue::set(const AccessPath &Relative, const AbstractValue &Value) {
  if (Relative.depth() == 0) {
    *this = Value;
    return;
  }
  llvm::erase_if(Parts, [&](const Part &P) { return Relative.covers(P.first); });
  Parts.push_back({Relative, Value.Whole});
  for (const auto &[Path, Fact] : Value.Parts)
    if (std::optional<AccessPath> Deeper = Relative.append(Path))
      Parts.push_back({*Deeper, Fact});
  llvm::sort(Parts, [](const Part &L, const Part &R) { return pathLess(L.first, R.first); });
}

AbstractValue AbstractValue::join(const AbstractValue &Other) const {
  if (Parts.empty() && Other.Parts.empty())
    return Whole.join(Other.Whole);
  AbstractValue Result(Whole.join(Other.Whole));
  auto Add = [&](const AccessPath &Path) {
    if (llvm::none_of(Result.Parts, [&](const Part &P) { return P.first == Path; }))
      Result.Parts.push_back({Path, at(Path).join(Other.at(Path))});
  };
  for (const auto &[Path, Fact] : Parts)
    Add(Path);
  for (const auto &[Path, Fact] : Other.Parts)
    Add(Path);
  llvm::sort(Result.Parts,
             [](const Part &L, const Part &R) { return pathLess(L.first, R.first); });
  return Result;
}

} // namespace placelint::analysis
