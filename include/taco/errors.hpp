// The one exception hierarchy of tacocore (DESIGN.md §5). Every message names the file, sample or
// column involved and what was expected; callers never need to parse it.
#pragma once

#include <stdexcept>
#include <string>

namespace taco {

/// Base of every error tacocore raises. `kind()` names the subclass for bindings and the CLI.
class Error : public std::runtime_error {
  public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
    virtual const char* kind() const noexcept { return "TacoError"; }
};

/// A file is not a valid TACO container (bad header, truncated ZIP, missing COLLECTION.json, ...).
class FormatError : public Error {
  public:
    using Error::Error;
    const char* kind() const noexcept override { return "TacoFormatError"; }
};

/// A value, column, id or collection field breaks the data model (bad id, bad key, type mismatch).
class SchemaError : public Error {
  public:
    using Error::Error;
    const char* kind() const noexcept override { return "TacoSchemaError"; }
};

/// The sample tree breaks PIT-1 (structural isomorphism) or PIT-2 (one schema per level).
class PitError : public SchemaError {
  public:
    using SchemaError::SchemaError;
    const char* kind() const noexcept override { return "TacoPitError"; }
};

/// A SQL query or filter cannot be planned or executed.
class QueryError : public Error {
  public:
    using Error::Error;
    const char* kind() const noexcept override { return "TacoQueryError"; }
};

/// A read of a Dataset after its close() (or of a view or DataFrame derived from it). The same
/// error for every kind of read (data, sql, read, read_bytes, ...); a QueryError, so it reaches
/// Python as TacoQueryError like the pure-Python checks.
class ClosedError : public QueryError {
  public:
    using QueryError::QueryError;
};

/// Reading or writing bytes failed (missing file, permission, disk full, existing target).
class IoError : public Error {
  public:
    using Error::Error;
    const char* kind() const noexcept override { return "TacoIOError"; }
};

/// `read(key)` was given a position or id that does not exist.
class NavigationError : public Error {
  public:
    using Error::Error;
    const char* kind() const noexcept override { return "TacoNavigationError"; }
};

}  // namespace taco
