// pl::optim: SGD, Adam and AdamW over a module's parameters(), as in libtorch.
#pragma once

#include <pl/optim/adam.h>
#include <pl/optim/optimizer.h>
#include <pl/optim/sgd.h>
