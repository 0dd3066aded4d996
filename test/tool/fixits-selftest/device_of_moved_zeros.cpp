// Self-test input of fixits_keep_behaviour.py: prints where its tensor is.
// fake_placelint.py "fixes" it by deleting the move, which changes the
// output from sim:0 to cpu: the test must fail for this program.
#include <pl/pl.h>

#include <iostream>

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  auto state = pl::zeros({2}).to(device);
  std::cout << state.device() << "\n";
  return 0;
}
