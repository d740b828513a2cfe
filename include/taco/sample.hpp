// SAMPLE: the smallest unit of a TACO dataset (spec §5.2). A FILE points to bytes (a file on disk
// or an in-memory buffer); a FOLDER points to a Tortilla of children.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "taco/value.hpp"

namespace taco {

class Tortilla;

enum class SampleType : uint8_t { File, Folder };
const char* to_string(SampleType type);  // "FILE" / "FOLDER"

class Sample {
  public:
    /// FILE whose bytes are read from `path` when the dataset is written. The file must exist.
    static Sample file(std::string id, std::filesystem::path path);
    /// FILE whose bytes are given in memory (an empty string makes a zero-byte sample).
    static Sample bytes(std::string id, std::string data);
    /// FOLDER holding the samples of `children`.
    static Sample folder(std::string id, Tortilla children);

    const std::string& id() const { return id_; }
    SampleType type() const { return type_; }
    bool is_file() const { return type_ == SampleType::File; }
    bool is_folder() const { return type_ == SampleType::Folder; }
    /// True for `__TACOPAD__N` samples made by Tortilla padding.
    bool is_padding() const { return padding_; }

    /// FILE from disk: its path (absolute). Empty for in-memory FILEs and FOLDERs.
    const std::filesystem::path& path() const { return path_ ? *path_ : no_path(); }
    /// FILE from memory: its bytes (nullptr for other samples).
    const std::string* memory() const { return bytes_.get(); }
    /// FILE: byte size. FOLDER: total bytes of all FILEs below it.
    uint64_t size() const { return size_; }
    /// FOLDER: its children. Throws SchemaError on a FILE.
    const Tortilla& children() const;

    /// Adds or replaces an extension field. Keys follow `^[A-Za-z0-9_]+(:\w+)?$` and may not be
    /// `id`, `type`, `path` or start with `internal:`; SchemaError otherwise.
    Sample& set(std::string key, Value value);
    /// `set` for every pair, in order.
    Sample& extend_with(const std::vector<Field>& fields);
    /// `set` for every pair, in order; a sample without fields takes the vector itself (one
    /// allocation for a whole row, which matters at millions of samples).
    Sample& extend_with(std::vector<Field>&& fields);
    /// Removes a field and returns it; SchemaError for core fields, std::out_of_range if absent.
    Value pop(const std::string& key);

    const std::vector<Field>& fields() const { return fields_; }
    /// The value of a field, or nullptr when the sample has none by that name.
    const Value* get(const std::string& key) const;

    /// A `__TACOPAD__N` zero-byte FILE whose fields are typed nulls of `schema`.
    static Sample padding(size_t index, const std::vector<ColumnType>& schema);

  private:
    friend class Tortilla;  // aligns fields in non-strict mode
    Sample() = default;
    /// set's checks of one field: SchemaError for a bad key or text that is not UTF-8.
    void check_field(const std::string& key, const Value& value) const;
    std::string id_;
    SampleType type_ = SampleType::File;
    bool padding_ = false;
    // Shared, not held: samples are copied into Tortillas and Tacos, and copying a path copies
    // each of its components (~1 us for a deep one, most of a Tortilla's construction).
    std::shared_ptr<const std::filesystem::path> path_;
    static const std::filesystem::path& no_path();
    std::shared_ptr<const std::string> bytes_;
    std::shared_ptr<const Tortilla> children_;
    uint64_t size_ = 0;
    std::vector<Field> fields_;
};

/// Checks a sample id (no `/`, `\`, `:`, NUL; not empty, `.` or `..`; not starting with `__`).
/// Throws SchemaError naming the id and the rule it breaks.
void validate_sample_id(const std::string& id);
/// Checks an extension key as Sample::set does. Throws SchemaError.
void validate_extension_key(const std::string& key);

}  // namespace taco
