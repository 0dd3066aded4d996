// Uses the installed runtime: a model on sim:0, the mismatch it catches,
// and the rule ids from the installed catalogue.
#include <iostream>

#include <pl/pl.h>
#include <placelint/rules.h>

int main() {
  pl::nn::Linear model(3, 2);
  model->to(pl::Device("sim:0"));
  try {
    (void)model(pl::ones({1, 3}));
    std::cout << "consumer: the mismatch was not caught\n";
    return 1;
  } catch (const pl::DeviceMismatchError &error) {
    if (std::string(error.what()).rfind(placelint::ruleId(placelint::Rule::MixedDevice), 0) != 0) {
      std::cout << "consumer: unexpected message: " << error.what() << "\n";
      return 1;
    }
  }
  const pl::Tensor out = model(pl::ones({1, 3}).to(pl::Device("sim:0"))).cpu();
  if (out.sizes() != std::vector<std::int64_t>{1, 2}) {
    std::cout << "consumer: wrong output sizes " << out.sizes() << "\n";
    return 1;
  }
  std::cout << "consumer: ok\n";
  return 0;
}
