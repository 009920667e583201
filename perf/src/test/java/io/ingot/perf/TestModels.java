package io.ingot.perf;

import io.ingot.config.ConfigNormalizer;
import io.ingot.config.ModelConfigParser;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;

/** The built-in example models the perf tests serve, as in-memory configurations (no repository on disk). */
final class TestModels
{
    private TestModels()
    {
    }

    /** @return {@code identity}: one FP32 input of any length, returned unchanged; batches up to 8. */
    static ModelConfig identity() throws Exception
    {
        return normalized("""
            name: "identity"
            backend: "identity"
            max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            dynamic_batching { }
            """);
    }

    /** @return {@code add_sub}: OUTPUT0 = INPUT0 + INPUT1 and OUTPUT1 = INPUT0 - INPUT1, 16 FP32 each. */
    static ModelConfig addSub() throws Exception
    {
        return normalized("""
            name: "add_sub"
            backend: "add_sub"
            max_batch_size: 8
            input [
              { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
              { name: "INPUT1" data_type: TYPE_FP32 dims: [ 16 ] }
            ]
            output [
              { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
              { name: "OUTPUT1" data_type: TYPE_FP32 dims: [ 16 ] }
            ]
            """);
    }

    private static ModelConfig normalized(final String text) throws Exception
    {
        return ConfigNormalizer.normalize(ModelConfigParser.parse(text, "test"), NormalizeContext.cpuOnly());
    }
}
