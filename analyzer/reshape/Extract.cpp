// Extraction: the statement moves into a function of its own (free, static,
// inline, a template, in a namespace, below its caller, behind call levels)
// or into the member function of a struct holding its operands as fields.
// The code that moves carries its markers: the finding is now inside.
#include "Transforms.h"

namespace placelint::reshape {

using namespace clang;

namespace {

enum class Passing { Value, ConstRef, Ref };
enum class Placement { Above, Below, InNamespace };
enum class Templating { None, OnTypes, OnInt };

struct Extraction {
  Passing Pass = Passing::Ref;
  const char *Specifier = "";
  Placement Where = Placement::Above;
  Templating Template = Templating::None;
  unsigned Levels = 1;
};

bool isClass(QualType Type) { return Type.getNonReferenceType()->getAsCXXRecordDecl() != nullptr; }

/// What a helper needs to take the site's code: its variables, in order.
bool extractable(const Site &S, Passing Pass) {
  if (S.UsesThis || S.Jumps || S.Unnamable)
    return false;
  for (const SiteVariable &Variable : S.Variables) {
    if (Variable.Type.getNonReferenceType()->isArrayType())
      return false;
    if (Pass != Passing::Ref && Variable.Changed)
      return false;
    if (Pass == Passing::Value && !isCopyable(Variable.Type))
      return false;
  }
  return true;
}

std::string parameter(const SiteVariable &Variable, Passing Pass, const std::string &TypeName,
                      const ASTContext &Context) {
  QualType Type = Variable.Type.getNonReferenceType();
  std::string Spelled = TypeName.empty() ? spell(Pass == Passing::Ref ? Type : Type.getUnqualifiedType(), Context)
                                         : TypeName;
  switch (Pass) {
  case Passing::Value:
    return Spelled + " " + Variable.Name;
  case Passing::ConstRef:
    return "const " + Spelled + "& " + Variable.Name;
  case Passing::Ref:
    return Spelled + "& " + Variable.Name;
  }
  return "";
}

/// The code that moves into the helper, and the return type it needs.
struct Extracted {
  std::string Body;
  std::string Returns;
  CharSourceRange Init; ///< valid when a declaration or return keeps its place
};

std::optional<Extracted> extractedCode(const Program &P, const Site &S) {
  Extracted Code;
  if (!S.Value) {
    if (isa<DeclStmt>(S.Statement) || S.Returns)
      return std::nullopt;
    Code.Body = P.text(S.withTrailing());
    Code.Returns = "void";
    return Code;
  }
  Code.Init = valueRange(P, S);
  if (Code.Init.isInvalid())
    return std::nullopt;
  Code.Body = "return " + P.text(Code.Init) + ";";
  if (S.Trailing.isValid())
    Code.Body += " " + P.text(S.Trailing);
  Code.Returns = spell(S.ValueType, P.context());
  return Code;
}

/// Replaces the site's code with Call: the initializer of a declaration, or
/// the whole statement.
void callInPlace(Edit &E, const Site &S, const CharSourceRange &Init, const std::string &Call) {
  if (Init.isValid()) {
    E.replace(Init, Call);
    if (S.Trailing.isValid())
      E.replace(S.trailingWithSpace(), "");
  } else {
    E.replace(S.withTrailing(), Call + ";");
  }
}

bool extract(Edit &E, const std::vector<Site> &Sites, const Extraction &X) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    if (!extractable(S, X.Pass))
      continue;
    std::optional<Extracted> Code = extractedCode(P, S);
    if (!Code)
      continue;
    std::vector<std::string> TypeParameters, Parameters, Arguments;
    for (const SiteVariable &Variable : S.Variables) {
      std::string TypeName;
      if (X.Template == Templating::OnTypes && isClass(Variable.Type) && !Variable.CallsMemberTemplate) {
        TypeName = "T" + std::to_string(TypeParameters.size());
        TypeParameters.push_back("typename " + TypeName);
        if (X.Pass == Passing::Ref && Variable.Type.getNonReferenceType().isConstQualified())
          TypeName = "const " + TypeName;
      }
      Parameters.push_back(parameter(Variable, X.Pass, TypeName, P.context()));
      Arguments.push_back(Variable.Name);
    }
    if (X.Template == Templating::OnTypes && TypeParameters.empty())
      continue;
    if (X.Template == Templating::OnInt)
      TypeParameters.push_back("int Copies");
    std::string Head = TypeParameters.empty() ? "" : "template <" + llvm::join(TypeParameters, ", ") + ">\n";
    std::string Specifier = *X.Specifier ? std::string(X.Specifier) + " " : "";
    std::string Qualifier = X.Where == Placement::InNamespace ? "reshape_helpers::" : "";
    std::string TemplateArguments = X.Template == Templating::OnInt ? "<1>" : "";
    std::string ArgumentList = "(" + llvm::join(Arguments, ", ") + ")";
    std::string Return = Code->Returns == "void" ? "" : "return ";

    std::string Definitions, Declarations, Call;
    for (unsigned Level = 0; Level < X.Levels; ++Level) {
      std::string Name = E.fresh("reshape_helper");
      std::string Signature = Head + Specifier + Code->Returns + " " + Name + "(" + llvm::join(Parameters, ", ") + ")";
      std::string Body = Level == 0 ? Code->Body : Return + Call + ";";
      Definitions += Signature + " {\n  " + Body + "\n}\n";
      Declarations += Signature + ";\n";
      Call = Name + TemplateArguments + ArgumentList;
    }
    if (X.Where == Placement::InNamespace)
      Definitions = "namespace reshape_helpers {\n" + Definitions + "} // namespace reshape_helpers\n";
    if (X.Where == Placement::Below) {
      E.before(S.TopLevel, Declarations);
      E.after(S.TopLevel, Definitions);
    } else {
      E.before(S.TopLevel, Definitions);
    }
    callInPlace(E, S, Code->Init, Qualifier + Call);
    Applied = true;
  }
  return Applied;
}

enum class FieldsSetBy { Constructor, AggregateInit };

/// The statement becomes `run()` of a struct whose fields hold its operands;
/// what it assigns is copied back.
bool extractMember(Edit &E, const std::vector<Site> &Sites, FieldsSetBy SetBy) {
  const Program &P = E.program();
  bool Applied = false;
  for (const Site &S : Sites) {
    if (!extractable(S, Passing::Ref) || S.Variables.empty())
      continue;
    bool Copyable = true;
    for (const SiteVariable &Variable : S.Variables)
      Copyable &= isCopyable(Variable.Type) && Variable.Local;
    std::optional<Extracted> Code = extractedCode(P, S);
    if (!Copyable || !Code)
      continue;
    std::string Type = E.fresh("ReshapeStep"), Object = E.fresh("reshape_step");
    std::string Fields, ConstructorParameters, Initializers, Arguments, CopyBack;
    std::string Indent = P.indentation(S.Range.getBegin());
    for (const SiteVariable &Variable : S.Variables) {
      std::string Spelled = spell(Variable.Type.getNonReferenceType().getUnqualifiedType(), P.context());
      Fields += "  " + Spelled + " " + Variable.Name + ";\n";
      ConstructorParameters += std::string(ConstructorParameters.empty() ? "" : ", ") + Spelled + " " +
                               Variable.Name + "_value";
      Initializers += std::string(Initializers.empty() ? "" : ", ") + Variable.Name + "(" + Variable.Name + "_value)";
      Arguments += std::string(Arguments.empty() ? "" : ", ") + Variable.Name;
      if (Variable.Changed)
        CopyBack += "\n" + Indent + Variable.Name + " = " + Object + "." + Variable.Name + ";";
    }
    std::string Struct = "struct " + Type + " {\n" + Fields;
    if (SetBy == FieldsSetBy::Constructor)
      Struct += "  " + Type + "(" + ConstructorParameters + ") : " + Initializers + " {}\n";
    Struct += "  " + Code->Returns + " run() {\n    " + Code->Body + "\n  }\n};\n";
    E.before(S.TopLevel, Struct);
    std::string Construct = Type + " " + Object +
                            (SetBy == FieldsSetBy::Constructor ? "(" + Arguments + ")" : "{" + Arguments + "}") + ";";
    if (Code->Init.isValid()) {
      E.insertBefore(S.Range.getBegin(), Construct + "\n" + Indent);
      callInPlace(E, S, Code->Init, Object + ".run()");
      E.insertAfter(S.Range.getEnd(), CopyBack);
    } else {
      E.replace(S.withTrailing(), Construct + "\n" + Indent + Object + ".run();" + CopyBack);
    }
    Applied = true;
  }
  return Applied;
}

void add(std::vector<Transform> &Into, const char *Name, const char *Summary, Extraction X) {
  Into.push_back({Name, Summary, [X](Edit &E, const std::vector<Site> &Sites) { return extract(E, Sites, X); }});
}

} // namespace

void addExtractTransforms(std::vector<Transform> &Into) {
  add(Into, "extract-value", "into a static free function taking its operands by value",
      {Passing::Value, "static", Placement::Above, Templating::None, 1});
  add(Into, "extract-cref", "into an inline free function taking its operands by const&",
      {Passing::ConstRef, "inline", Placement::Above, Templating::None, 1});
  add(Into, "extract-ref", "into a free function taking its operands by &",
      {Passing::Ref, "", Placement::Above, Templating::None, 1});
  add(Into, "extract-below", "into a function defined below its caller, declared above it",
      {Passing::Ref, "", Placement::Below, Templating::None, 1});
  add(Into, "extract-namespace", "into a function in a namespace, called qualified",
      {Passing::Ref, "", Placement::InNamespace, Templating::None, 1});
  add(Into, "extract-template-type", "into a function template on its operands' class types",
      {Passing::Ref, "", Placement::Above, Templating::OnTypes, 1});
  add(Into, "extract-template-int", "into a function template on an int",
      {Passing::ConstRef, "", Placement::Above, Templating::OnInt, 1});
  add(Into, "extract-deep", "into a function reached through three call levels",
      {Passing::Ref, "static", Placement::Above, Templating::None, 3});
  Into.push_back({"member-constructor", "into run() of a struct whose constructor sets its operands as fields",
                  [](Edit &E, const std::vector<Site> &Sites) {
                    return extractMember(E, Sites, FieldsSetBy::Constructor);
                  }});
  Into.push_back({"member-aggregate", "into run() of an aggregate struct initialised with its operands",
                  [](Edit &E, const std::vector<Site> &Sites) {
                    return extractMember(E, Sites, FieldsSetBy::AggregateInit);
                  }});
}

} // namespace placelint::reshape
