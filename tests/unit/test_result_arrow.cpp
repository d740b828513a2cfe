// export_arrow_stream converts a table's chunks ahead of the consumer, a group at a time on every
// core, and joins runs of small chunks into one batch: the batches must still come in table
// order, one per full chunk, each whole, with the computed column built in place; small chunks
// must keep every value, NULL and string; a stream released half-read must free what it
// converted ahead; and a chunk that fails to convert must fail the stream at its own place,
// after every batch before it.
#include <duckdb.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_arrow.hpp"
#include "metadata/result_table.hpp"

using namespace taco;
using namespace taco::metadata;

namespace {

// 300,000 rows = 147 chunks of 2,048: more than the groups of 1, 2, 4, ... 64 chunks add up to
// (127), so the stream also converts capped groups.
constexpr int64_t kRows = 300'000;

std::shared_ptr<const ResultTable> numbered_rows(DuckSession& db) {
    return ResultTable::fetch(
        db, "SELECT i, 'id_' || i AS id FROM range(" + std::to_string(kRows) + ") t(i) ORDER BY i");
}

// The table with a computed text column "path" = "p/<i>" (derive_lazy, as gdal_vsi is made),
// which the stream builds itself as Arrow utf8. `fail_at` >= 0 makes that row's value throw.
std::shared_ptr<const ResultTable> with_computed_column(DuckSession& db, int64_t fail_at = -1) {
    return ResultTable::derive_lazy(
        numbered_rows(db), {0, 1}, {1, "__TACOPAD__"}, "path",
        [fail_at](const ResultTable::ChunkRows& rows, size_t i, std::string& out) {
            const int64_t v = rows.get_int(i, 0);
            if (v == fail_at) throw std::runtime_error("no path for row " + std::to_string(v));
            out = "p/" + std::to_string(v);
            return true;
        });
}

struct Stream {
    ArrowArrayStream s{};
    ~Stream() {
        if (s.release) s.release(&s);
    }

    // The Arrow format of each column (get_schema, which a consumer calls first).
    std::vector<std::string> formats() {
        ArrowSchema schema{};
        std::vector<std::string> out;
        EXPECT_EQ(s.get_schema(&s, &schema), 0) << s.get_last_error(&s);
        if (!schema.release) return out;
        for (int64_t j = 0; j < schema.n_children; ++j)
            out.emplace_back(schema.children[j]->format);
        schema.release(&schema);
        return out;
    }

    // Every batch up to the end (the caller releases them).
    std::vector<ArrowArray> take_all() {
        std::vector<ArrowArray> batches;
        for (;;) {
            ArrowArray batch{};
            EXPECT_EQ(s.get_next(&s, &batch), 0) << s.get_last_error(&s);
            if (!batch.release) break;
            batches.push_back(batch);
        }
        return batches;
    }
};

int64_t int_at(const ArrowArray& batch, size_t column, int64_t row) {
    const ArrowArray& c = *batch.children[column];
    return static_cast<const int64_t*>(c.buffers[1])[c.offset + row];
}

std::string utf8_at(const ArrowArray& batch, size_t column, int64_t row) {
    const ArrowArray& c = *batch.children[column];
    const auto* offsets = static_cast<const int32_t*>(c.buffers[1]);
    const char* data = static_cast<const char*>(c.buffers[2]);
    const int64_t r = c.offset + row;
    return std::string(data + offsets[r], static_cast<size_t>(offsets[r + 1] - offsets[r]));
}

// Reads the stream to its end, checking every row; returns the number of batches.
size_t read_and_check(ArrowArrayStream& s, bool has_path) {
    int64_t next = 0;
    size_t batches = 0;
    for (;;) {
        ArrowArray batch{};
        EXPECT_EQ(s.get_next(&s, &batch), 0) << s.get_last_error(&s);
        if (!batch.release) break;
        ++batches;
        EXPECT_EQ(batch.n_children, has_path ? 3 : 2);
        for (int64_t r = 0; r < batch.length; ++r, ++next) {
            if (int_at(batch, 0, r) != next) {
                ADD_FAILURE() << "batch " << batches << " row " << r
                              << ": i = " << int_at(batch, 0, r) << ", expected " << next;
                batch.release(&batch);
                return batches;
            }
            if (r % 997 == 0) {
                EXPECT_EQ(utf8_at(batch, 1, r), "id_" + std::to_string(next));
                if (has_path) {
                    EXPECT_EQ(utf8_at(batch, 2, r), "p/" + std::to_string(next));
                }
            }
        }
        batch.release(&batch);
    }
    EXPECT_EQ(next, kRows);
    return batches;
}

TEST(ResultArrow, BatchesComeInTableOrderOnePerChunk) {
    DuckSession db;
    auto table = numbered_rows(db);
    Stream stream;
    export_arrow_stream(table, db, &stream.s);
    EXPECT_EQ(read_and_check(stream.s, false), table->raw_chunks().size());
    // Past the end it stays at the end.
    ArrowArray after{};
    EXPECT_EQ(stream.s.get_next(&stream.s, &after), 0);
    EXPECT_EQ(after.release, nullptr);
}

TEST(ResultArrow, TheComputedColumnIsBuiltInPlaceInEveryBatch) {
    DuckSession db;
    auto table = with_computed_column(db);
    Stream stream;
    export_arrow_stream(table, db, &stream.s);
    ArrowSchema schema{};
    ASSERT_EQ(stream.s.get_schema(&stream.s, &schema), 0);
    ASSERT_EQ(schema.n_children, 3);
    EXPECT_STREQ(schema.children[2]->name, "path");
    EXPECT_STREQ(schema.children[2]->format, "u");
    schema.release(&schema);
    EXPECT_EQ(read_and_check(stream.s, true), table->chunks_unfilled().size());
}

bool is_valid(const ArrowArray& column, int64_t row) {
    const auto* bits = static_cast<const uint8_t*>(column.buffers[0]);
    const int64_t r = column.offset + row;
    return !bits || (bits[r / 8] >> (r % 8)) & 1;
}

TEST(ResultArrow, SmallChunksShareABatchAndKeepEveryValueAndNull) {
    DuckSession db(1);  // one thread: the filtered rows come in order without an ORDER BY
    // A selective filter: DuckDB hands over ~21 rows per chunk, as a 1 % sql() filter does.
    auto filtered = ResultTable::fetch(db,
                                       "SELECT i, 'id_' || i AS id, CASE WHEN i % 2 = 0 THEN NULL "
                                       "ELSE 'a string longer than twelve bytes ' || i "
                                       "END AS text FROM range(600000) t(i) WHERE i % 97 = 0");
    const auto& source_chunks = filtered->raw_chunks();
    ASSERT_GT(source_chunks.size(), 200u) << "the filter should leave many small chunks";
    // The computed column: NULL for every third row, so validity spans joined chunks too.
    auto table = ResultTable::derive_lazy(
        filtered, {0, 1, 2}, {1, "__TACOPAD__"}, "path",
        [](const ResultTable::ChunkRows& rows, size_t i, std::string& out) {
            const int64_t v = rows.get_int(i, 0);
            if (v / 97 % 3 == 0) return false;
            out = "p/" + std::to_string(v);
            return true;
        });
    for (bool computed : {false, true}) {
        Stream stream;
        export_arrow_stream(computed ? table : filtered, db, &stream.s);
        ASSERT_FALSE(stream.formats().empty());
        int64_t k = 0;  // row k holds i = 97 k
        size_t batches = 0;
        for (;;) {
            ArrowArray batch{};
            ASSERT_EQ(stream.s.get_next(&stream.s, &batch), 0)
                << stream.s.get_last_error(&stream.s);
            if (!batch.release) break;
            ++batches;
            EXPECT_LE(batch.length, 2048);
            for (int64_t r = 0; r < batch.length; ++r, ++k) {
                const int64_t i = 97 * k;
                ASSERT_EQ(int_at(batch, 0, r), i)
                    << "computed " << computed << " batch " << batches << " row " << r;
                ASSERT_EQ(utf8_at(batch, 1, r), "id_" + std::to_string(i));
                ASSERT_EQ(is_valid(*batch.children[2], r), i % 2 != 0) << "i = " << i;
                if (i % 2 != 0) {
                    ASSERT_EQ(utf8_at(batch, 2, r),
                              "a string longer than twelve bytes " + std::to_string(i));
                }
                if (computed) {
                    ASSERT_EQ(is_valid(*batch.children[3], r), k % 3 != 0) << "i = " << i;
                    if (k % 3 != 0) {
                        ASSERT_EQ(utf8_at(batch, 3, r), "p/" + std::to_string(i));
                    }
                }
            }
            batch.release(&batch);
        }
        EXPECT_EQ(k, (600000 + 96) / 97);
        // ~6,186 rows in ~290 chunks: 4 batches of at most 2,048 rows, not one per chunk.
        EXPECT_LE(batches, 5u) << "computed = " << computed;
    }
}

// Every fixed-width type a ResultTable holds, with NULLs: the values an Arrow consumer reads
// are the table's, whether the batch points at DuckDB's vectors (one chunk) or at the copy of a
// run of small chunks, and they stay readable after the stream and the table are gone.
TEST(ResultArrow, FixedWidthColumnsAreDuckDBsOwnValuesAndOutliveTheStream) {
    DuckSession db(1);  // one thread: the filtered rows come in order without an ORDER BY
    const std::string columns =
        "SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE i::INTEGER END AS i32, "
        "i::FLOAT / 4 AS f32, CASE WHEN i % 7 = 0 THEN NULL ELSE i / 8 END AS f64, "
        "DATE '2020-01-01' + (i % 1000)::INTEGER AS d, "
        "CASE WHEN i % 3 = 0 THEN NULL ELSE TIMESTAMP '2020-01-01' + to_microseconds(i) END AS ts, "
        "TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_microseconds(i) AS tstz "
        "FROM range(300000) t(i) ";
    for (const char* where : {"", "WHERE i % 97 = 0"}) {
        auto table = ResultTable::fetch(db, columns + where);
        Stream stream;
        export_arrow_stream(table, db, &stream.s);
        const std::vector<std::string> formats = stream.formats();
        ASSERT_EQ(formats.size(), 7u);
        EXPECT_EQ(std::vector<std::string>(formats.begin(), formats.end() - 1),
                  (std::vector<std::string>{"l", "i", "f", "g", "tdD", "tsu:"}));
        EXPECT_EQ(formats.back().substr(0, 4), "tsu:");  // and the session's time zone
        EXPECT_GT(formats.back().size(), 4u);
        std::vector<ArrowArray> batches = stream.take_all();
        // Where the chunks are whole, the first batch's BIGINT column is the chunk's own vector.
        if (*where == '\0') {
            auto first = static_cast<duckdb_data_chunk>(table->raw_chunks()[0]);
            EXPECT_EQ(batches[0].children[0]->buffers[1],
                      duckdb_vector_get_data(duckdb_data_chunk_get_vector(first, 0)));
        } else {
            EXPECT_LT(batches.size(), table->raw_chunks().size() / 10)
                << "small chunks share batches";
        }
        stream.s.release(&stream.s);
        table.reset();  // the batches alone keep the values alive now
        const int64_t step = *where ? 97 : 1;
        int64_t k = 0;
        for (ArrowArray& batch : batches) {
            int64_t i32_nulls = 0;
            for (int64_t r = 0; r < batch.length; ++r, ++k) {
                const int64_t i = k * step;
                i32_nulls += i % 5 == 0;
                ASSERT_EQ(int_at(batch, 0, r), i) << where;
                const ArrowArray& i32 = *batch.children[1];
                ASSERT_EQ(is_valid(i32, r), i % 5 != 0) << "i = " << i;
                if (i % 5) {
                    ASSERT_EQ(static_cast<const int32_t*>(i32.buffers[1])[r], i);
                }
                ASSERT_EQ(static_cast<const float*>(batch.children[2]->buffers[1])[r],
                          static_cast<float>(i) / 4);
                ASSERT_EQ(is_valid(*batch.children[3], r), i % 7 != 0);
                if (i % 7) {
                    ASSERT_EQ(static_cast<const double*>(batch.children[3]->buffers[1])[r],
                              static_cast<double>(i) / 8);
                }
                ASSERT_EQ(static_cast<const int32_t*>(batch.children[4]->buffers[1])[r],
                          18262 + i % 1000);  // 2020-01-01 is day 18,262
                const int64_t micros = 1577836800000000 + i;
                ASSERT_EQ(is_valid(*batch.children[5], r), i % 3 != 0);
                if (i % 3) {
                    ASSERT_EQ(static_cast<const int64_t*>(batch.children[5]->buffers[1])[r],
                              micros);
                }
                ASSERT_EQ(static_cast<const int64_t*>(batch.children[6]->buffers[1])[r], micros);
            }
            EXPECT_EQ(batch.children[1]->null_count, i32_nulls);
            batch.release(&batch);
        }
        EXPECT_EQ(k, (300000 + step - 1) / step) << where;
    }
}

// VARCHAR and BLOB columns: empty, inline (up to 12 bytes) and longer strings, NULLs, bytes
// with zeros, in whole and in joined small chunks, readable after the stream and table are gone.
TEST(ResultArrow, TextColumnsKeepEveryByteAndNull) {
    DuckSession db(1);  // one thread: the filtered rows come in order without an ORDER BY
    const std::string columns =
        "SELECT i, CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 's' || i "
        "ELSE 'a string longer than twelve bytes ' || i END AS text, "
        "CASE WHEN i % 6 = 0 THEN NULL ELSE ('\\x00\\x01z' || i)::BLOB END AS bytes "
        "FROM range(200000) t(i) ";
    auto expected_text = [](int64_t i) {
        switch (i % 4) {
            case 1:
                return std::string();
            case 2:
                return "s" + std::to_string(i);
            default:
                return "a string longer than twelve bytes " + std::to_string(i);
        }
    };
    for (const char* where : {"", "WHERE i % 89 = 0"}) {
        auto table = ResultTable::fetch(db, columns + where);
        Stream stream;
        export_arrow_stream(table, db, &stream.s);
        const std::vector<std::string> formats = stream.formats();
        ASSERT_EQ(formats.size(), 3u);
        EXPECT_EQ(formats[1], "u");
        EXPECT_EQ(formats[2], "z");
        std::vector<ArrowArray> batches = stream.take_all();
        stream.s.release(&stream.s);
        table.reset();
        const int64_t step = *where ? 89 : 1;
        int64_t k = 0;
        for (ArrowArray& batch : batches) {
            int64_t text_nulls = 0;
            for (int64_t r = 0; r < batch.length; ++r, ++k) {
                const int64_t i = k * step;
                ASSERT_EQ(int_at(batch, 0, r), i) << where;
                ASSERT_EQ(is_valid(*batch.children[1], r), i % 4 != 0) << "i = " << i;
                text_nulls += i % 4 == 0;
                if (i % 4) {
                    ASSERT_EQ(utf8_at(batch, 1, r), expected_text(i)) << "i = " << i;
                }
                ASSERT_EQ(is_valid(*batch.children[2], r), i % 6 != 0) << "i = " << i;
                if (i % 6) {
                    ASSERT_EQ(utf8_at(batch, 2, r), std::string("\0\1z", 3) + std::to_string(i));
                }
            }
            EXPECT_EQ(batch.children[1]->null_count, text_nulls);
            batch.release(&batch);
        }
        EXPECT_EQ(k, (200000 + step - 1) / step) << where;
    }
}

// A table none of whose columns is made here (booleans only): every batch is DuckDB's
// conversion, whole chunks and joined small ones alike, with its NULLs.
TEST(ResultArrow, ColumnsOnlyDuckDBConvertsComeThroughTheSameBatches) {
    DuckSession db(1);  // one thread: the filtered rows come in order without an ORDER BY
    for (const char* where : {"", "WHERE i % 97 = 0"}) {
        auto table = ResultTable::fetch(
            db,
            std::string("SELECT i % 3 = 0 AS third, CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 = 0 "
                        "END AS even FROM range(100000) t(i) ") +
                where);
        Stream stream;
        export_arrow_stream(table, db, &stream.s);
        EXPECT_EQ(stream.formats(), (std::vector<std::string>{"b", "b"}));
        const int64_t step = *where ? 97 : 1;
        int64_t k = 0;
        for (ArrowArray& batch : stream.take_all()) {
            for (int64_t r = 0; r < batch.length; ++r, ++k) {
                const int64_t i = k * step;
                auto bit = [&](size_t column) {
                    const ArrowArray& c = *batch.children[column];
                    const auto* bits = static_cast<const uint8_t*>(c.buffers[1]);
                    const int64_t at = c.offset + r;
                    return ((bits[at / 8] >> (at % 8)) & 1) != 0;
                };
                ASSERT_EQ(bit(0), i % 3 == 0) << "i = " << i;
                ASSERT_EQ(is_valid(*batch.children[1], r), i % 5 != 0) << "i = " << i;
                if (i % 5) {
                    ASSERT_EQ(bit(1), i % 2 == 0) << "i = " << i;
                }
            }
            batch.release(&batch);
        }
        EXPECT_EQ(k, (100000 + step - 1) / step) << where;
    }
}

TEST(ResultArrow, AStreamReleasedHalfReadFreesWhatItConvertedAhead) {
    // Under AddressSanitizer (make test's ASan unit run) a batch converted ahead and never
    // handed out would be reported as leaked.
    DuckSession db;
    for (bool computed : {false, true}) {
        Stream stream;
        export_arrow_stream(computed ? with_computed_column(db) : numbered_rows(db), db, &stream.s);
        ASSERT_FALSE(stream.formats().empty());
        int64_t first = 0;
        for (int taken = 0; taken < 6; ++taken) {  // groups of 1, 2, 4: the third is half taken
            ArrowArray batch{};
            ASSERT_EQ(stream.s.get_next(&stream.s, &batch), 0);
            ASSERT_NE(batch.release, nullptr);
            EXPECT_EQ(int_at(batch, 0, 0), first);
            first += batch.length;
            batch.release(&batch);
        }
    }
}

TEST(ResultArrow, AChunkThatFailsFailsTheStreamAfterEveryBatchBeforeIt) {
    DuckSession db;
    const int64_t fail_at = 150'000;
    auto table = with_computed_column(db, fail_at);
    // The failing row's chunk, and the first chunk of its group (groups of 1, 2, 4, ... 64, then
    // 64): what comes before that group is handed out, nothing from it on.
    const auto& chunks = table->chunks_unfilled();
    size_t failing = 0;
    for (int64_t end = 0; failing < chunks.size(); ++failing) {
        end += static_cast<int64_t>(
            duckdb_data_chunk_get_size(static_cast<duckdb_data_chunk>(chunks[failing])));
        if (end > fail_at) break;
    }
    size_t group_start = 0;
    for (size_t g = 1; group_start + g <= failing; g = std::min<size_t>(g * 2, 64))
        group_start += g;
    int64_t expected = 0;
    for (size_t c = 0; c < group_start; ++c) {
        expected += static_cast<int64_t>(
            duckdb_data_chunk_get_size(static_cast<duckdb_data_chunk>(chunks[c])));
    }
    ASSERT_GT(failing, group_start) << "the failing chunk should not open its group";

    Stream stream;
    export_arrow_stream(table, db, &stream.s);
    ASSERT_FALSE(stream.formats().empty());
    int64_t delivered = 0;
    int status = 0;
    for (;;) {
        ArrowArray batch{};
        status = stream.s.get_next(&stream.s, &batch);
        if (status != 0 || !batch.release) break;
        EXPECT_EQ(int_at(batch, 0, 0), delivered);
        delivered += batch.length;
        batch.release(&batch);
    }
    EXPECT_NE(status, 0) << "the stream ended without the failing row's error";
    EXPECT_EQ(delivered, expected);
    EXPECT_STREQ(stream.s.get_last_error(&stream.s), "no path for row 150000");
}

}  // namespace
