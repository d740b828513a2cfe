#include "ext/vertex_visitor.hpp"

#include <ogr_geometry.h>
#include <ogr_spatialref.h>

namespace taco::ext::detail {
namespace {

// A "coordinate transformation" that hands each vertex to a callback; no CRS on either side.
// This file is compiled without RTTI (CMakeLists.txt): a class derived from a GDAL class would
// otherwise refer to GDAL's typeinfo object, data that the `taco` program, which loads GDAL on
// first use (src/gdal_lazy/), cannot forward. GDAL only makes virtual calls on it.
class Visitor final : public OGRCoordinateTransformation {
  public:
    explicit Visitor(const std::function<void(double&, double&)>& visit) : visit_(visit) {}
    OGRSpatialReference* GetSourceCS() override { return nullptr; }
    OGRSpatialReference* GetTargetCS() override { return nullptr; }
    int Transform(int count, double* x, double* y, double*, double*, int* ok) override {
        for (int i = 0; i < count; ++i) {
            visit_(x[i], y[i]);
            if (ok) ok[i] = TRUE;
        }
        return TRUE;
    }
    int TransformWithErrorCodes(int count, double* x, double* y, double*, double*,
                                int* codes) override {
        for (int i = 0; i < count; ++i) {
            visit_(x[i], y[i]);
            if (codes) codes[i] = 0;
        }
        return TRUE;
    }
    OGRCoordinateTransformation* Clone() const override { return new Visitor(visit_); }
    OGRCoordinateTransformation* GetInverse() const override { return nullptr; }

  private:
    const std::function<void(double&, double&)>& visit_;
};

}  // namespace

bool visit_vertices(OGRGeometry& geometry, const std::function<void(double& x, double& y)>& visit) {
    Visitor v(visit);
    return geometry.transform(&v) == OGRERR_NONE;
}

}  // namespace taco::ext::detail
