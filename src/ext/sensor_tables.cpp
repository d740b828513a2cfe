// optical_data() / supported_sensors(): tacotoolbox's sensor band tables, read once from the JSON
// compiled into the library (sensor_bands_data.cpp, generated from src/ext/sensor_bands.json).
#include <nlohmann/json.hpp>

#include "model/join.hpp"
#include "taco/errors.hpp"
#include "taco/extensions.hpp"

namespace taco::ext {
namespace {

using OrderedJson = nlohmann::ordered_json;

// Parsed on first use; a static local is initialised once, also when threads race to it.
const OrderedJson& tables() {
    static const OrderedJson parsed = OrderedJson::parse(sensor_bands_json())["sensors"];
    return parsed;
}

template <class T>
std::optional<T> optional_field(const OrderedJson& band, const char* key) {
    auto it = band.find(key);
    if (it == band.end() || it->is_null()) return std::nullopt;
    return it->get<T>();
}

SpectralBand band_of(const std::string& name, const OrderedJson& row) {
    SpectralBand b;
    b.name = name;
    b.index = optional_field<int64_t>(row, "index");
    b.common_name = optional_field<std::string>(row, "common_name");
    b.description = optional_field<std::string>(row, "description");
    b.unit = optional_field<std::string>(row, "unit");
    b.center_wavelength = optional_field<double>(row, "center_wavelength");
    b.full_width_half_max = optional_field<double>(row, "full_width_half_max");
    return b;
}

}  // namespace

const std::vector<std::string>& supported_sensors() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& [name, table] : tables().items()) out.push_back(name);
        return out;
    }();
    return names;
}

OpticalData optical_data(std::string_view spec) {
    std::string name;
    for (char c : spec)
        if (c != ' ') name += c;
    std::vector<std::string> wanted;  // empty: every band
    bool subset = false;
    if (auto open = name.find('['); open != std::string::npos && name.back() == ']') {
        subset = true;
        std::string list = name.substr(open + 1, name.size() - open - 2);
        name.resize(open);
        size_t start = 0;
        while (start <= list.size()) {
            size_t comma = list.find(',', start);
            if (comma == std::string::npos) comma = list.size();
            if (comma > start) wanted.push_back(list.substr(start, comma - start));
            start = comma + 1;
        }
    }
    std::string key = name;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto it = tables().find(key);
    if (it == tables().end()) {
        throw SchemaError("OpticalData: unsupported sensor '" + name +
                          "' (supported: " + join_text(supported_sensors()) +
                          "); give bands=[SpectralBand(...)] for another sensor");
    }
    OpticalData out;
    out.sensor = name;  // as given (tacotoolbox keeps the spelling; the lookup ignores case)
    if (!subset) {
        for (const auto& [band, row] : it->items()) out.bands.push_back(band_of(band, row));
        return out;
    }
    std::vector<std::string> unknown, known;
    for (const auto& [band, row] : it->items()) known.push_back(band);
    for (const auto& band : wanted) {
        auto row = it->find(band);
        if (row == it->end())
            unknown.push_back(band);
        else
            out.bands.push_back(band_of(band, *row));
    }
    if (!unknown.empty()) {
        throw SchemaError("OpticalData: sensor '" + key + "' has no band(s) " + join_text(unknown) +
                          " (it has " + join_text(known) + ")");
    }
    if (out.bands.empty())
        throw SchemaError("OpticalData: '" + std::string(spec) + "' selects no band");
    return out;
}

}  // namespace taco::ext
