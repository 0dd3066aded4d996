// issue 19 class 4 (assignment forms), pl: a member assigned a factory's tensor moved at once in a constructor.
// BUG (create-then-move). An exponential-moving-average tracker holds its
// device behind a shared_ptr and allocates its running mean in the
// constructor body with `pl::zeros(...).to(*m_device)`.
#include <pl/pl.h>

#include <iostream>
#include <memory>

class RunningMean {
 public:
  RunningMean(std::int64_t features, pl::Device device)
      : m_device(std::make_shared<pl::Device>(device)) {
    m_mean = pl::zeros({features}).to(*m_device); // expect: placement-create-then-move
  }
  void update(const pl::Tensor &batch, double momentum) {
    m_mean = m_mean * momentum + batch.mean({0}) * (1.0 - momentum);
  }
  const pl::Tensor &mean() const { return m_mean; }

 private:
  std::shared_ptr<pl::Device> m_device;
  pl::Tensor m_mean;
};

int main(int argc, char **argv) {
  const pl::Device device(argc > 1 ? argv[1] : "cpu");
  RunningMean tracker(32, device);
  for (int step = 0; step < 100; ++step)
    tracker.update(pl::randn({64, 32}, pl::device(device)), 0.99);
  std::cout << tracker.mean().sum().item<float>() << "\n";
  return 0;
}
