// Access paths (private to analyzer/lib): the places whose values the flow
// analysis tracks. A path is a variable (a local, a parameter, a field of
// `this`) and up to kMaxDepth steps into it: a field of a struct
// (`batch.img`, `cfg->device`), an element of a tuple or pair
// (`std::get<0>(state)`, `result.second`), a map's entry named by a constant
// key (`batch["ids"]`). Containers and pointers are seen through: the other
// elements of a container share one value, the container's own, and `*p` /
// `p->x` are p / p.x.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/xxhash.h"

#include <array>
#include <cstdint>
#include <optional>

namespace clang {
class FieldDecl;
class ValueDecl;
} // namespace clang

namespace placelint::analysis {

// One step into a value: a field, the element of a tuple or pair, the
// position of a value in a list written out, or the entry of a map that a
// constant key names (`m["mean"]`). The low two bits tell them apart: a
// field is its FieldDecl's address (aligned to 8), an element or a
// position its index, a key the 62-bit hash of its text. A key is thus the
// same step in every function, unit and run, whatever was analysed before,
// with no table to keep or grow; two of a program's n keys share a hash with
// odds of about n^2 / 2^63 (10^-13 for a thousand keys).
class AccessStep {
public:
  static AccessStep field(const clang::FieldDecl *Field) {
    return AccessStep(reinterpret_cast<std::uintptr_t>(Field) | FieldTag);
  }
  static AccessStep element(unsigned Index) {
    return AccessStep((std::uintptr_t(Index) << TagBits) | ElementTag);
  }
  // The I-th value of a list written out (`return {a_, b_};`), for what
  // takes the list whole (an optimizer): reading one element reads the list.
  static AccessStep position(unsigned Index) {
    return AccessStep((std::uintptr_t(Index) << TagBits) | PositionTag);
  }
  static AccessStep key(llvm::StringRef Text) {
    return AccessStep((std::uintptr_t(llvm::xxh3_64bits(Text)) << TagBits) | KeyTag);
  }
  bool isKey() const { return (Bits & TagMask) == KeyTag; }
  bool isPosition() const { return (Bits & TagMask) == PositionTag; }

  const clang::FieldDecl *asField() const {
    return (Bits & TagMask) == FieldTag ? reinterpret_cast<const clang::FieldDecl *>(Bits)
                                        : nullptr;
  }
  std::uintptr_t bits() const { return Bits; }

  friend bool operator==(AccessStep L, AccessStep R) { return L.Bits == R.Bits; }
  friend bool operator<(AccessStep L, AccessStep R) { return L.Bits < R.Bits; }

private:
  static_assert(sizeof(std::uintptr_t) == 8, "a key's hash takes 62 bits");
  static constexpr unsigned TagBits = 2;
  static constexpr std::uintptr_t TagMask = 3, FieldTag = 0, ElementTag = 1, KeyTag = 2,
                                   PositionTag = 3;
  explicit AccessStep(std::uintptr_t Bits) : Bits(Bits) {}
  std::uintptr_t Bits;
};

class AccessPath {
public:
  static constexpr unsigned kMaxDepth = 3;

  AccessPath() = default;
  // The variable itself (null: a path relative to some value).
  explicit AccessPath(const clang::ValueDecl *Root) : Root(Root) {}

  const clang::ValueDecl *root() const { return Root; }
  unsigned depth() const { return Depth; }
  llvm::ArrayRef<AccessStep> steps() const {
    return llvm::ArrayRef(reinterpret_cast<const AccessStep *>(Steps.data()), Depth);
  }
  // One step further down; nullopt past kMaxDepth.
  std::optional<AccessPath> child(AccessStep Step) const {
    if (Depth == kMaxDepth)
      return std::nullopt;
    AccessPath Child = *this;
    Child.Steps[Child.Depth++] = Step.bits();
    return Child;
  }
  // This path followed by Relative's steps (its root ignored); nullopt
  // past kMaxDepth.
  std::optional<AccessPath> append(const AccessPath &Relative) const {
    std::optional<AccessPath> Result = *this;
    for (AccessStep Step : Relative.steps())
      if (!(Result = Result->child(Step)))
        return std::nullopt;
    return Result;
  }
  AccessPath parent() const {
    AccessPath Parent = *this;
    if (Parent.Depth)
      Parent.Steps[--Parent.Depth] = 0;
    return Parent;
  }
  // Whether Other is this path or below it.
  bool covers(const AccessPath &Other) const {
    return Root == Other.Root && Depth <= Other.Depth &&
           std::equal(Steps.begin(), Steps.begin() + Depth, Other.Steps.begin());
  }
  // Other's steps below this path, as a relative path (root null).
  AccessPath relativeOf(const AccessPath &Other) const {
    AccessPath Relative;
    for (AccessStep Step : Other.steps().drop_front(Depth))
      Relative = *Relative.child(Step);
    return Relative;
  }
  AccessPath withRoot(const clang::ValueDecl *NewRoot) const {
    AccessPath Moved = *this;
    Moved.Root = NewRoot;
    return Moved;
  }

  friend bool operator==(const AccessPath &L, const AccessPath &R) {
    return L.Root == R.Root && L.Depth == R.Depth && L.Steps == R.Steps;
  }
  friend bool operator!=(const AccessPath &L, const AccessPath &R) { return !(L == R); }
  friend llvm::hash_code hash_value(const AccessPath &Path) {
    return llvm::hash_combine(Path.Root, Path.Depth,
                              llvm::hash_combine_range(Path.Steps.begin(), Path.Steps.end()));
  }

private:
  friend struct llvm::DenseMapInfo<AccessPath>;
  const clang::ValueDecl *Root = nullptr;
  std::array<std::uintptr_t, kMaxDepth> Steps{};
  std::uint8_t Depth = 0;
};

// Erases from Places (a map keyed by AccessPath) every place of Root.
template <class PlaceMap> void eraseRoot(PlaceMap &Places, const clang::ValueDecl *Root) {
  llvm::SmallVector<AccessPath, 4> Found;
  for (const auto &Entry : Places)
    if (Entry.first.root() == Root)
      Found.push_back(Entry.first);
  for (const AccessPath &Path : Found)
    Places.erase(Path);
}

} // namespace placelint::analysis

template <> struct llvm::DenseMapInfo<placelint::analysis::AccessPath> {
  using Path = placelint::analysis::AccessPath;
  static Path getEmptyKey() {
    Path Key;
    Key.Root = DenseMapInfo<const clang::ValueDecl *>::getEmptyKey();
    return Key;
  }
  static Path getTombstoneKey() {
    Path Key;
    Key.Root = DenseMapInfo<const clang::ValueDecl *>::getTombstoneKey();
    return Key;
  }
  static unsigned getHashValue(const Path &Key) { return hash_value(Key); }
  static bool isEqual(const Path &L, const Path &R) { return L == R; }
};
