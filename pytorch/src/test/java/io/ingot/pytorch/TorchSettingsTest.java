package io.ingot.pytorch;

import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Triton's PyTorch parameters: their defaults, their value syntax and the ones checked but not applied. */
class TorchSettingsTest
{
    @Test
    void defaultsAreTritons()
    {
        final TorchSettings settings = TorchSettings.from("m", TestModels.config("name: 'm'"));
        assertTrue(settings.inferenceMode());
        assertTrue(settings.optimizedExecution());
        assertFalse(settings.weightSharing());
        assertEquals(-1, settings.intraOpThreads());
        assertEquals(-1, settings.interOpThreads());
        assertEquals(List.of(), settings.ignored());
    }

    @Test
    void readsEveryKeyWithTritonsSyntax()
    {
        final TorchSettings settings = TorchSettings.from("m", TestModels.config("""
            name: 'm'
            parameters { key: 'INFERENCE_MODE' value { string_value: 'Off' } }
            parameters { key: 'DISABLE_OPTIMIZED_EXECUTION' value { string_value: '1' } }
            parameters { key: 'ENABLE_WEIGHT_SHARING' value { string_value: 'ON' } }
            parameters { key: 'INTRA_OP_THREAD_COUNT' value { string_value: '2' } }
            parameters { key: 'INTER_OP_THREAD_COUNT' value { string_value: ' 1 ' } }
            parameters { key: 'ENABLE_JIT_PROFILING' value { string_value: 'false' } }
            parameters { key: 'DISABLE_CUDNN' value { string_value: 'true' } }
            """));
        assertFalse(settings.inferenceMode());
        assertFalse(settings.optimizedExecution());
        assertTrue(settings.weightSharing());
        assertEquals(2, settings.intraOpThreads());
        assertEquals(1, settings.interOpThreads());
        assertEquals(List.of("DISABLE_CUDNN", "ENABLE_JIT_PROFILING"), settings.ignored());
    }

    @Test
    void badValuesNameTheModelTheKeyAndTheValue()
    {
        assertEquals("model 'm': parameter INTRA_OP_THREAD_COUNT: failed to convert 'four' to integral number",
            assertThrows(IllegalArgumentException.class, () -> TorchSettings.from("m", TestModels.config(
                "name: 'm' parameters { key: 'INTRA_OP_THREAD_COUNT' value { string_value: 'four' } }")))
                .getMessage());
        assertEquals("model 'm': parameter ENABLE_TENSOR_FUSER: failed to convert 'yes' to boolean (true, on, 1, false,"
            + " off or 0)", assertThrows(IllegalArgumentException.class, () -> TorchSettings.from("m",
            TestModels.config("name: 'm' parameters { key: 'ENABLE_TENSOR_FUSER' value { string_value: 'yes' } }")))
            .getMessage());
    }
}
