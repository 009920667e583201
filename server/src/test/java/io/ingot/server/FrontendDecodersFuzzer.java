package io.ingot.server;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ingot.server.grpc.GrpcInferDecoderFuzzTarget;
import io.ingot.server.http.HttpInferDecoderFuzzTarget;
import io.ingot.server.json.JsonTensorReaderFuzzTarget;
import org.junit.jupiter.api.AfterAll;

/**
 * Jazzer on the frontends' decoders of untrusted bytes, in one fuzzing JVM (Jazzer fuzzes one test per JVM, and each
 * JVM costs the build seconds to start): the last byte of an input picks the surface, the rest is its input —
 * the HTTP infer decoder ({@link HttpInferDecoderFuzzTarget}), the JSON tensor reader
 * ({@link JsonTensorReaderFuzzTarget}), the gRPC request parser and decoder ({@link GrpcInferDecoderFuzzTarget}).
 * Each surface reports its own figures (RELIABILITY.md). Seeds: {@code FrontendDecodersFuzzerInputs/} (each seed
 * ends in the byte of its surface).
 */
class FrontendDecodersFuzzer
{
    @AfterAll
    static void report()
    {
        HttpInferDecoderFuzzTarget.finish();
        JsonTensorReaderFuzzTarget.finish();
        GrpcInferDecoderFuzzTarget.finish();
    }

    @FuzzTest(maxDuration = "10s")
    @DictionaryEntries({"{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[1,2],\"data\":[",
        "\"parameters\":{\"binary_data_size\":", "\"shared_memory_region\":\"r\"", "\"shared_memory_byte_size\":",
        "\"shared_memory_offset\":", "\"outputs\":[{\"name\":\"OUTPUT0\"", "\"binary_data\":true",
        "\"classification\":", "\"priority\":", "\"timeout\":", "\"sequence_id\":", "\"binary_data_output\":",
        "\"id\":", "\"BYTES\"", "\"INT64\"", "\"BOOL\"", "\"UINT64\"", "\"FP16\"", "NaN", "Infinity", "-Infinity",
        "Inf", "-Inf", "1e39", "-0", "1.5e-45", "true", "false", "null", "18446744073709551616",
        "18446744073709551615", "9223372036854775807", "-9223372036854775808", "\\u0000", "\\ud800",
        "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "[[", "]]"})
    void everyDecoderAnswersEveryInput(final FuzzedDataProvider data)
    {
        switch (data.consumeInt(0, 2))
        {
            case 0 -> HttpInferDecoderFuzzTarget.fuzzOne(data);
            case 1 -> JsonTensorReaderFuzzTarget.fuzzOne(data);
            default -> GrpcInferDecoderFuzzTarget.fuzzOne(data);
        }
    }
}
