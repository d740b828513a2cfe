#include "spatial/sql_functions.hpp"

#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

#include "metadata/scalar_udf.hpp"
#include "spatial/box_predicate.hpp"
#include "taco/errors.hpp"

namespace taco::spatial {
namespace {

using metadata::UdfArgs;
using metadata::UdfType;

enum Arg { kGeom, kGeomCrs, kMinX, kMinY, kMaxX, kMaxY, kBoxCrs, kColumn, kSample };

std::string sample_text(const UdfArgs& args, size_t r) {
    const std::string_view id = args.get_string(kSample, r);
    return id.empty() ? std::string("(no id)") : "'" + std::string(id) + "'";
}

// One predicate per (box, CRS pair), per worker thread: building one projects the box and
// prepares it for GEOS (tens of microseconds), and prepared geometries are not thread-safe.
class PredicateCache {
  public:
    const BoxPredicate& get(const UdfArgs& args, size_t r) {
        const std::string_view geom_crs = args.get_string(kGeomCrs, r);
        const std::string_view box_crs = args.get_string(kBoxCrs, r);
        double box_now[4];
        for (int a = kMinX; a <= kMaxY; ++a) box_now[a - kMinX] = args.get_double(a, r);
        // Nearly every row asks what the previous one did (one box, one CRS per dataset): that
        // is three comparisons, not a key built and hashed per row.
        if (last_ && geom_crs == last_geom_crs_ && box_crs == last_box_crs_ &&
            std::memcmp(box_now, last_box_, sizeof box_now) == 0) {
            return *last_;
        }
        key_.clear();
        key_.append(geom_crs).push_back('\x1f');
        key_.append(box_crs).push_back('\x1f');
        for (int a = kMinX; a <= kMaxY; ++a) {
            const double v = args.get_double(a, r);
            key_.append(reinterpret_cast<const char*>(&v), sizeof v);
        }
        auto it = cache_.find(key_);
        if (it == cache_.end()) {
            if (cache_.size() >= 256) cache_.clear();  // many distinct CRSs: start over
            const BBox box{args.get_double(kMinX, r), args.get_double(kMinY, r),
                           args.get_double(kMaxX, r), args.get_double(kMaxY, r)};
            std::unique_ptr<BoxPredicate> p;
            try {
                p = std::make_unique<BoxPredicate>(box, std::string(box_crs),
                                                   std::string(geom_crs));
            } catch (const QueryError& e) {
                throw QueryError("filter_bbox: sample " + sample_text(args, r) + ": the CRS of " +
                                 "column '" + std::string(args.get_string(kColumn, r)) +
                                 "': " + e.what());
            }
            it = cache_.emplace(key_, std::move(p)).first;
        }
        last_ = it->second.get();
        last_geom_crs_.assign(geom_crs);
        last_box_crs_.assign(box_crs);
        std::memcpy(last_box_, box_now, sizeof last_box_);
        return *last_;
    }

  private:
    std::string key_;
    std::string last_geom_crs_, last_box_crs_;
    double last_box_[4] = {};
    const BoxPredicate* last_ = nullptr;
    std::unordered_map<std::string, std::unique_ptr<BoxPredicate>> cache_;
};

void bbox_intersects(const UdfArgs& args, std::vector<uint8_t>& out) {
    thread_local PredicateCache cache;
    for (size_t r = 0; r < args.rows(); ++r) {
        // NULL geometry: not kept. NULL sample: DuckDB probing the predicate (every real row
        // has an id; filters pass '' when the dataset has no id column): no answer, no error.
        if (args.is_null(kGeom, r) || args.is_null(kSample, r)) continue;
        for (int a = kMinX; a <= kBoxCrs; ++a) {
            if (args.is_null(a, r)) throw QueryError("filter_bbox: the box has a NULL bound");
        }
        if (args.is_null(kGeomCrs, r)) {
            throw QueryError("filter_bbox: sample " + sample_text(args, r) +
                             " has a geometry in '" + std::string(args.get_string(kColumn, r)) +
                             "' but no CRS (its CRS column is NULL)");
        }
        const std::optional<bool> hit = cache.get(args, r).intersects(args.get_string(kGeom, r));
        if (!hit) {
            throw QueryError("filter_bbox: column '" + std::string(args.get_string(kColumn, r)) +
                             "' of sample " + sample_text(args, r) +
                             " does not hold a WKB geometry (" +
                             std::to_string(args.get_string(kGeom, r).size()) + " bytes)");
        }
        out[r] = *hit ? 1 : 0;
    }
}

}  // namespace

void register_sql_functions(metadata::DuckSession& db) {
    metadata::register_bool_function(
        db, kBboxFunction,
        {UdfType::Blob, UdfType::Varchar, UdfType::Double, UdfType::Double, UdfType::Double,
         UdfType::Double, UdfType::Varchar, UdfType::Varchar, UdfType::Varchar},
        bbox_intersects);
}

}  // namespace taco::spatial
