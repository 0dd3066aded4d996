#include "ApiSpellings.h"

#include "llvm/ADT/StringRef.h"

namespace placelint::analysis {

namespace {

enum class Match { Exactly, Prefix, Suffix, Containing };

struct NameLine {
  ApiNameRole Role;
  Match How;
  llvm::StringRef Text;
};

const NameLine NameLines[] = {
#define PL_API_NAME(Role, How, Text) {ApiNameRole::Role, Match::How, Text},
#include <placelint/api.def>
};

bool matches(const NameLine &Line, llvm::StringRef Name) {
  switch (Line.How) {
  case Match::Exactly:
    return Name == Line.Text;
  case Match::Prefix:
    return Name.starts_with(Line.Text);
  case Match::Suffix:
    return Name.ends_with(Line.Text);
  case Match::Containing:
    return Name.contains(Line.Text);
  }
  return false;
}

struct HolderLine {
  StdHolder Role;
  llvm::StringRef Template;
};

const HolderLine HolderLines[] = {
#define PL_API_STD_HOLDER(Role, Template) {StdHolder::Role, Template},
#include <placelint/api.def>
};

} // namespace

bool hasApiName(ApiNameRole Role, llvm::StringRef Name) {
  for (const NameLine &Line : NameLines)
    if (Line.Role == Role && matches(Line, Name))
      return true;
  return false;
}

llvm::StringRef withoutApiSuffix(ApiNameRole Role, llvm::StringRef Name) {
  for (const NameLine &Line : NameLines)
    if (Line.Role == Role && Line.How == Match::Suffix && Name.ends_with(Line.Text))
      return Name.drop_back(Line.Text.size());
  return Name;
}

llvm::StringRef apiName(ApiNameRole Role) {
  for (const NameLine &Line : NameLines)
    if (Line.Role == Role)
      return Line.Text;
  return "";
}

std::optional<StdHolder> stdHolder(llvm::StringRef QualifiedName) {
  for (const HolderLine &Line : HolderLines)
    if (Line.Template == QualifiedName)
      return Line.Role;
  return std::nullopt;
}

} // namespace placelint::analysis
