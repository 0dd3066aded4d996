// pl::nn: modules and their holders.
#pragma once

#include <pl/nn/module.h>
#include <pl/nn/modules.h>
#include <pl/nn/pimpl.h>
