package io.ingot.onnx;

import io.ingot.onnx.capi.OrtApi;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionSettingsTest
{
    @Test
    void readsTritonParameterNames()
    {
        final SessionSettings settings = SessionSettings.from(TestModels.config("""
            name: "m"
            parameters { key: "intra_op_thread_count" value { string_value: "3" } }
            parameters { key: "inter_op_thread_count" value { string_value: "2" } }
            parameters { key: "execution_mode" value { string_value: "1" } }
            parameters { key: "enable_mem_arena" value { string_value: "off" } }
            parameters { key: "enable_mem_pattern" value { string_value: "1" } }
            parameters { key: "share_session_between_instances" value { string_value: "false" } }
            optimization { graph { level: 1 } }
            """));
        assertEquals(3, settings.intraOpThreads());
        assertEquals(2, settings.interOpThreads());
        assertTrue(settings.parallelExecution());
        assertEquals(Boolean.FALSE, settings.memoryArena());
        assertEquals(Boolean.TRUE, settings.memoryPattern());
        assertFalse(settings.shareSession());
        assertEquals(OrtApi.ORT_ENABLE_EXTENDED, settings.optimization());
    }

    @Test
    void passesOnnxRuntimesOwnConfigurationEntriesUnderTheirNames()
    {
        final SessionSettings settings = SessionSettings.from(TestModels.config("""
            name: "m"
            parameters { key: "session.use_device_allocator_for_initializers" value { string_value: "1" } }
            parameters { key: "memory.enable_memory_arena_shrinkage" value { string_value: "cpu:0" } }
            """));
        assertEquals("cpu:0", settings.arenaShrinkage());
        try (io.ingot.onnx.capi.OrtSessionOptions options = settings.createOptions())
        {
            // Read back from ONNX Runtime's own options: the entry reached the session options.
            assertEquals("1", options.configEntry("session.use_device_allocator_for_initializers"));
        }
    }

    @Test
    void defaultsToOnnxRuntimeDefaultsAndTheMeasuredSessionSharing()
    {
        final SessionSettings settings = SessionSettings.from(TestModels.config("name: \"m\""));
        assertEquals(0, settings.intraOpThreads());
        assertFalse(settings.parallelExecution());
        assertNull(settings.memoryArena());
        assertEquals(OrtApi.ORT_ENABLE_ALL, settings.optimization());
        assertEquals(SessionSettings.DEFAULT_SHARE_SESSION, settings.shareSession());
    }

    @Test
    void mapsGraphLevelsAsTritonDoes()
    {
        assertEquals(OrtApi.ORT_ENABLE_BASIC, level(-1));
        assertEquals(OrtApi.ORT_ENABLE_ALL, level(0));
        assertEquals(OrtApi.ORT_ENABLE_EXTENDED, level(1));
        assertEquals(OrtApi.ORT_DISABLE_ALL, level(2));
        assertEquals(OrtApi.ORT_ENABLE_ALL, level(7));
    }

    @Test
    void namesTheModelAndParameterOfABadValue()
    {
        final IllegalArgumentException threads = assertThrows(IllegalArgumentException.class,
            () -> SessionSettings.from(TestModels.config("""
                name: "bert" parameters { key: "intra_op_thread_count" value { string_value: "-2" } }""")));
        assertEquals("model 'bert': parameter 'intra_op_thread_count' must be a non-negative integer, was '-2'",
            threads.getMessage());
        final IllegalArgumentException mode = assertThrows(IllegalArgumentException.class,
            () -> SessionSettings.from(TestModels.config("""
                name: "bert" parameters { key: "execution_mode" value { string_value: "2" } }""")));
        assertTrue(mode.getMessage().contains("'execution_mode' must be 0 (sequential) or 1 (parallel)"));
        final IllegalArgumentException share = assertThrows(IllegalArgumentException.class,
            () -> SessionSettings.from(TestModels.config("""
                name: "bert" parameters { key: "share_session_between_instances" value { string_value: "maybe" } }
                """)));
        assertTrue(share.getMessage().contains("must be true or false"), share.getMessage());
    }

    private static int level(final int level)
    {
        return SessionSettings.from(TestModels.config("name: \"m\" optimization { graph { level: " + level + " } }"))
            .optimization();
    }
}
