#pragma once
/// What a declared dataset is, and so how the engine stores and refreshes it.

namespace cdc::engine {

enum class DatasetKind {
    AutoCdc,         ///< a streaming table fed by AUTO CDC flows: SCD1 / SCD2 backing table
    Append,          ///< a streaming table fed by append flows (INSERT INTO ... BY NAME, AS query)
    MaterializedView ///< recomputed in full by every update
};

} // namespace cdc::engine
