// Umbrella header of the tacocore C++ API.
#pragma once

#include "taco/collection.hpp"
#include "taco/convert.hpp"
#include "taco/dataframe.hpp"
#include "taco/dataset.hpp"
#include "taco/errors.hpp"
#include "taco/legacy.hpp"
#include "taco/log.hpp"
#include "taco/remote.hpp"
#include "taco/sample.hpp"
#include "taco/tacocat.hpp"
#include "taco/tog.hpp"
#include "taco/tortilla.hpp"
#include "taco/validate.hpp"
#include "taco/value.hpp"
#include "taco/writer.hpp"
