// PIT-1 / PIT-2 validation. The tree shape is merged into one "shape" tree, position by position,
// so each root sample is compared with the first root that defined each position.
#include "model/pit.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "taco/errors.hpp"

namespace taco::model {
namespace {

struct ShapeNode {
    bool defined = false;
    std::string id;
    SampleType type = SampleType::File;
    std::string owner_path;    // full path of the sample that defined this position, for messages
    std::string padding_path;  // first padding sample at this position (padding = FILE only)
    std::optional<size_t> child_count;
    std::string child_count_owner;
    std::vector<ShapeNode> children;
};

std::string join(const std::string& parent, const std::string& id) {
    return parent.empty() ? id : parent + "/" + id;
}

[[noreturn]] void pit1(const std::string& root_id, size_t depth, const std::string& detail) {
    throw PitError("PIT-1 violation in root sample '" + root_id + "' at depth " +
                   std::to_string(depth) + ": " + detail +
                   " (every root sample must have the same tree: same child count, ids and types "
                   "by position)");
}

// Merges the children of `folder` (path `path`, at `depth`) into `shape`.
void merge_children(const Sample& folder, const std::string& path, size_t depth,
                    const std::string& root_id, ShapeNode& shape) {
    const auto& kids = folder.children().samples();
    if (!shape.child_count) {
        shape.child_count = kids.size();
        shape.child_count_owner = path;
        shape.children.resize(kids.size());
    } else if (*shape.child_count != kids.size()) {
        pit1(root_id, depth,
             "folder '" + path + "' has " + std::to_string(kids.size()) + " children, expected " +
                 std::to_string(*shape.child_count) + " as '" + shape.child_count_owner + "' has");
    }
    for (size_t i = 0; i < kids.size(); ++i) {
        const Sample& kid = kids[i];
        ShapeNode& node = shape.children[i];
        std::string kid_path = join(path, kid.id());
        if (kid.is_padding()) {
            if (node.defined && node.type == SampleType::Folder) {
                pit1(root_id, depth + 1,
                     "position " + std::to_string(i) + " under '" + path + "' is padding '" +
                         kid.id() + "', but '" + node.owner_path +
                         "' is a FOLDER there (padding only stands in "
                         "for FILEs)");
            }
            if (node.padding_path.empty()) node.padding_path = kid_path;
            continue;
        }
        if (kid.is_folder() && !node.padding_path.empty()) {
            pit1(root_id, depth + 1,
                 "position " + std::to_string(i) + " under '" + path + "' holds FOLDER '" +
                     kid.id() + "', but '" + node.padding_path +
                     "' is padding there (padding only stands in for FILEs)");
        }
        if (!node.defined) {
            node.defined = true;
            node.id = kid.id();
            node.type = kid.type();
            node.owner_path = kid_path;
        } else if (node.id != kid.id() || node.type != kid.type()) {
            pit1(root_id, depth + 1,
                 "position " + std::to_string(i) + " under '" + path + "' holds " +
                     to_string(kid.type()) + " '" + kid.id() + "', expected " +
                     to_string(node.type) + " '" + node.id + "' as in '" + node.owner_path + "'");
        }
        if (kid.is_folder()) merge_children(kid, kid_path, depth + 1, root_id, node);
    }
}

// Unifies the schema of one tortilla into the level schema (PIT-2).
void merge_level_schema(std::map<std::string, DataType>& level,
                        std::map<std::string, std::string>& owner, bool& first, const Tortilla& t,
                        const std::string& folder_path, size_t depth) {
    auto fail = [&](const std::string& detail) {
        throw PitError("PIT-2 violation at level " + std::to_string(depth) + ": the children of '" +
                       folder_path + "' " + detail +
                       " (all samples of one level must share one schema)");
    };
    if (first) {
        for (const auto& c : t.schema()) {
            level.emplace(c.name, c.type);
            owner.emplace(c.name, folder_path);
        }
        first = false;
        return;
    }
    for (const auto& c : t.schema()) {
        auto it = level.find(c.name);
        if (it == level.end())
            fail("have column '" + c.name + "', which the other folders of this level do not have");
        DataType merged;
        if (!DataType::unify(it->second, c.type, merged)) {
            fail("have column '" + c.name + "' of type " + c.type.arrow_name() + ", expected " +
                 it->second.arrow_name() + " as under '" + owner[c.name] + "'");
        }
        it->second = std::move(merged);
    }
    if (t.schema().size() != level.size()) {
        for (const auto& column : level) {
            const std::string& name = column.first;  // a plain reference: clang 14 (fuzz build)
            bool has = std::any_of(t.schema().begin(), t.schema().end(),
                                   [&](const ColumnType& c) { return c.name == name; });
            if (!has) fail("lack column '" + name + "', which '" + owner[name] + "' children have");
        }
    }
}

// Walks the tree level by level, calling fn(depth, tortilla, folder path) for each tortilla below
// the root.
template <typename Fn>
void for_each_child_tortilla(const Tortilla& root, Fn&& fn) {
    struct Item {
        const Tortilla* t;
        std::string path;
    };
    std::vector<Item> current{{&root, ""}};
    for (size_t depth = 1; !current.empty(); ++depth) {
        std::vector<Item> next;
        for (const auto& item : current) {
            for (const auto& s : item.t->samples()) {
                if (!s.is_folder()) continue;
                std::string p = join(item.path, s.id());
                fn(depth, s.children(), p);
                next.push_back({&s.children(), p});
            }
        }
        current = std::move(next);
    }
}

}  // namespace

void validate_pit(const Tortilla& root) {
    if (root.depth() > kMaxLevels) {
        throw PitError("the sample tree has " + std::to_string(root.depth()) +
                       " levels; TACO allows at most " + std::to_string(kMaxLevels) +
                       " (the TACO_HEADER holds 6 level slots plus COLLECTION.json)");
    }
    const Sample* first = nullptr;
    for (const auto& s : root.samples()) {
        if (s.is_padding()) continue;
        if (!first) {
            first = &s;
        } else if (s.type() != first->type()) {
            throw PitError("PIT violation at level 0: root sample '" + s.id() + "' is a " +
                           to_string(s.type()) + " but root sample '" + first->id() + "' is a " +
                           to_string(first->type()) + " (all root samples must have one type)");
        }
    }
    if (first && first->is_folder()) {
        ShapeNode shape;
        for (const auto& s : root.samples()) {
            if (s.is_padding()) continue;
            merge_children(s, s.id(), 0, s.id(), shape);
        }
    }
    (void)level_schemas(root);  // PIT-2 throws from inside
}

std::vector<std::vector<ColumnType>> level_schemas(const Tortilla& root) {
    std::vector<std::vector<ColumnType>> out{root.schema()};
    std::vector<std::map<std::string, DataType>> levels;
    std::vector<std::map<std::string, std::string>> owners;
    std::vector<bool> first;
    for_each_child_tortilla(root, [&](size_t depth, const Tortilla& t, const std::string& path) {
        if (levels.size() < depth) {
            levels.resize(depth);
            owners.resize(depth);
            first.resize(depth, true);
        }
        bool f = first[depth - 1];
        merge_level_schema(levels[depth - 1], owners[depth - 1], f, t, path, depth);
        first[depth - 1] = f;
    });
    for (auto& level : levels) {
        std::vector<ColumnType> cols;
        for (auto& [name, type] : level) cols.push_back({name, type});
        out.push_back(std::move(cols));
    }
    return out;
}

}  // namespace taco::model
