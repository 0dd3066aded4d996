// The device string a std::string holds where a Device is made from it
// (`torch::Device(cfg.device)`, `Device d(name)`): a field of the file's
// classes, a global or a local holds the literal that every write of it in
// the main file gives it (its initializer, a constructor's member
// initializer, an assignment, an aggregate's element); none when two writes
// disagree, one is not a literal, or the code can change it otherwise (a
// non-const reference or pointer to it, a non-const method of it). A
// parameter's string is the caller's: none.
#pragma once

namespace clang {
class ASTContext;
class Expr;
class StringLiteral;
} // namespace clang

namespace placelint::analysis {

const clang::StringLiteral *deviceStringHeldBy(const clang::Expr &E, const clang::ASTContext &Context);

} // namespace placelint::analysis
