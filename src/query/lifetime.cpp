#include "query/lifetime.hpp"

#include "taco/errors.hpp"

namespace taco::query {

Lifetime::Lifetime(std::string id, std::vector<std::shared_ptr<const Lifetime>> parents)
    : id_(std::move(id)), parents_(std::move(parents)) {}

std::shared_ptr<Lifetime> Lifetime::derived(const std::shared_ptr<const Lifetime>& parent) {
    return std::make_shared<Lifetime>(parent->id_,
                                      std::vector<std::shared_ptr<const Lifetime>>{parent});
}

bool Lifetime::closed() const noexcept {
    if (closed_.load(std::memory_order_acquire)) return true;
    for (const auto& parent : parents_)
        if (parent->closed()) return true;
    return false;
}

void Lifetime::check(const char* what) const {
    if (!closed()) return;
    throw ClosedError("dataset '" + id_ + "' is closed: " + what +
                      " refused (close() was called on it or on a view it was made from; load "
                      "it again to read)");
}

}  // namespace taco::query
