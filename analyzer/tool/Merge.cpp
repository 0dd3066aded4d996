#include "Merge.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

namespace placelint::tool {

namespace json = llvm::json;

namespace {

llvm::Error malformed(llvm::StringRef Path, llvm::StringRef Why) {
  return llvm::createStringError("'%s' is not a placelint SARIF log: %s", Path.str().c_str(),
                                 Why.str().c_str());
}

// The one run of a placelint SARIF log.
llvm::Expected<json::Object> readRun(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s", Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  llvm::Expected<json::Value> Log = json::parse((*Buffer)->getBuffer());
  if (!Log)
    return malformed(Path, llvm::toString(Log.takeError()));
  json::Object *Root = Log->getAsObject();
  if (!Root || Root->getString("version") != "2.1.0")
    return malformed(Path, "no SARIF version 2.1.0");
  json::Array *Runs = Root->getArray("runs");
  if (!Runs || Runs->size() != 1 || !(*Runs)[0].getAsObject())
    return malformed(Path, "expected exactly one run");
  json::Object Run = std::move(*(*Runs)[0].getAsObject());
  const json::Object *Tool = Run.getObject("tool");
  const json::Object *Driver = Tool ? Tool->getObject("driver") : nullptr;
  if (!Driver || Driver->getString("name") != "placelint")
    return malformed(Path, "the run is not placelint's");
  if (!Run.getArray("results") || !Run.getArray("invocations"))
    return malformed(Path, "the run has no results or no invocations");
  return Run;
}

// Results are the same finding when they agree on all of these.
std::string resultIdentity(const json::Value &Result) {
  const json::Object *Obj = Result.getAsObject();
  if (!Obj)
    return {};
  std::string Identity;
  llvm::raw_string_ostream OS(Identity);
  OS << json::Value(Obj->getString("ruleId").value_or("")) << '|';
  if (const json::Value *Locations = Obj->get("locations"))
    OS << *Locations;
  OS << '|';
  if (const json::Object *Message = Obj->getObject("message"))
    OS << json::Value(Message->getString("text").value_or(""));
  return Identity;
}

// The rule descriptors of the merged run, by id, so that every result's
// ruleIndex points into the merged rules array even when shards enabled
// checks outside the catalogue in a different order.
class RuleTable {
public:
  explicit RuleTable(json::Array &Rules) : Rules(Rules) {
    for (size_t I = 0; I < Rules.size(); ++I)
      if (const json::Object *Rule = Rules[I].getAsObject())
        Indices.try_emplace(Rule->getString("id").value_or("").str(), I);
  }

  // Points Result's ruleIndex at its rule, adding the rule's descriptor
  // from the shard's own table when the merged one lacks it.
  void reindex(json::Object &Result, const json::Array *ShardRules) {
    std::string Id = Result.getString("ruleId").value_or("").str();
    auto [It, Inserted] = Indices.try_emplace(Id, Rules.size());
    if (Inserted) {
      json::Object Descriptor{{"id", Id}};
      if (ShardRules)
        for (const json::Value &Rule : *ShardRules)
          if (const json::Object *Obj = Rule.getAsObject(); Obj && Obj->getString("id") == Id)
            Descriptor = *Obj;
      Rules.push_back(std::move(Descriptor));
    }
    Result["ruleIndex"] = static_cast<int64_t>(It->second);
  }

private:
  json::Array &Rules;
  std::map<std::string, size_t> Indices;
};

json::Array *driverRules(json::Object &Run) {
  return Run.getObject("tool")->getObject("driver")->getArray("rules");
}

} // namespace

llvm::Expected<MergeOutcome> mergeSarif(llvm::StringRef Output,
                                        llvm::ArrayRef<std::string> Inputs) {
  if (Inputs.empty())
    return llvm::createStringError("merge needs at least one input SARIF log");
  llvm::Expected<json::Object> Merged = readRun(Inputs.front());
  if (!Merged)
    return Merged.takeError();
  const json::Value *RootBase = Merged->get("originalUriBaseIds");
  json::Array *MergedRules = driverRules(*Merged);
  if (!MergedRules)
    return malformed(Inputs.front(), "the driver has no rules");
  RuleTable Rules(*MergedRules);
  json::Array Results;
  json::Array Notifications;
  std::set<std::string> Seen;
  MergeOutcome Outcome;
  for (const std::string &Input : Inputs) {
    llvm::Expected<json::Object> Run = readRun(Input);
    if (!Run)
      return Run.takeError();
    const json::Value *Base = Run->get("originalUriBaseIds");
    if ((Base == nullptr) != (RootBase == nullptr) || (Base && *Base != *RootBase))
      return llvm::createStringError("'%s' has another source root than '%s'", Input.c_str(),
                                     Inputs.front().c_str());
    for (json::Value &Result : *Run->getArray("results")) {
      json::Object *Obj = Result.getAsObject();
      if (!Obj || !Seen.insert(resultIdentity(Result)).second)
        continue;
      Rules.reindex(*Obj, driverRules(*Run));
      Results.push_back(std::move(Result));
    }
    for (json::Value &Invocation : *Run->getArray("invocations")) {
      json::Object *Obj = Invocation.getAsObject();
      if (!Obj)
        continue;
      if (Obj->getBoolean("executionSuccessful") == false)
        Outcome.ExecutionSuccessful = false;
      if (json::Array *Items = Obj->getArray("toolExecutionNotifications"))
        for (json::Value &Item : *Items)
          Notifications.push_back(std::move(Item));
    }
  }
  Outcome.Results = Results.size();
  (*Merged)["results"] = std::move(Results);
  (*Merged)["invocations"] =
      json::Array{json::Object{{"executionSuccessful", Outcome.ExecutionSuccessful},
                               {"toolExecutionNotifications", std::move(Notifications)}}};
  json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{std::move(*Merged)}}};
  std::error_code EC;
  llvm::raw_fd_ostream Out(Output, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write '%s': %s", Output.str().c_str(),
                                   EC.message().c_str());
  Out << llvm::formatv("{0:2}\n", json::Value(std::move(Log)));
  return Outcome;
}

} // namespace placelint::tool
