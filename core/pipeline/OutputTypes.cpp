#include "core/pipeline/OutputTypes.h"

namespace cdc::pipeline {

namespace {
OutputTypeInference& installed() {
    static OutputTypeInference inference;
    return inference;
}
} // namespace

void setOutputTypeInference(OutputTypeInference inference) {
    installed() = std::move(inference);
}

const OutputTypeInference& outputTypeInference() {
    return installed();
}

} // namespace cdc::pipeline
