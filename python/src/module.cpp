// tacocore._core: the native half of the `tacocore` Python package.
#include "py_common.hpp"

NB_MODULE(_core, m) {
    m.doc() =
        "Native core of tacocore: TACO 2.0 datasets (create, load, SQL, navigation, sample bytes).";
    taco::py::bind_errors(m);
    taco::py::bind_model(m);
    taco::py::bind_reader(m);
    taco::py::bind_raster(m);
    taco::py::bind_remote(m);
    taco::py::bind_collection(m);
    taco::py::bind_training(m);
    taco::py::bind_convert(m);
    taco::py::bind_spacetime(m);
}
