package io.ingot.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ModelTableTest
{
    @Test
    void summarizesBatchingAndInstancesFromTheConfiguration()
    {
        assertEquals("dynamic (max 8, preferred [4,8], delay 2000us)", ModelTable.batching(TensorInputParserTest.config(
            "max_batch_size: 8 dynamic_batching { preferred_batch_size: [4, 8] max_queue_delay_microseconds: 2000 }")));
        assertEquals("adaptive (max 16, SLO 10000us at p99.9)", ModelTable.batching(TensorInputParserTest.config(
            "max_batch_size: 16 dynamic_batching { max_queue_delay_microseconds: 2000 }"
            + " parameters { key: 'ingot.batching' value { string_value: 'adaptive' } }"
            + " parameters { key: 'ingot.latency_slo_us' value { string_value: '10000' } }"
            + " parameters { key: 'ingot.slo_percentile' value { string_value: '99.9' } }")),
            "an adaptive policy shows its objective, not the delay it ignores");
        assertEquals("aimd (max 16, SLO 5000us, +1 x0.9)", ModelTable.batching(TensorInputParserTest.config(
            "max_batch_size: 16 dynamic_batching { }"
            + " parameters { key: 'ingot.batching' value { string_value: 'aimd' } }"
            + " parameters { key: 'ingot.latency_slo_us' value { string_value: '5000' } }")));
        assertEquals("none", ModelTable.batching(TensorInputParserTest.config("max_batch_size: 0")));
        assertEquals("max 4, no dynamic batcher",
            ModelTable.batching(TensorInputParserTest.config("max_batch_size: 4")));
        assertEquals("sequence (max 2)", ModelTable.batching(TensorInputParserTest.config(
            "max_batch_size: 2 sequence_batching { }")));
        assertEquals("2 x CPU, 1 x GPU[0,1]", ModelTable.instances(TensorInputParserTest.config(
            "instance_group { count: 2 kind: KIND_CPU } instance_group { count: 1 kind: KIND_GPU gpus: [0, 1] }")));
        assertEquals("onnxruntime_onnx", ModelTable.engine(TensorInputParserTest.config(
            "platform: \"onnxruntime_onnx\" backend: \"onnxruntime\"")));
        assertEquals("identity", ModelTable.engine(TensorInputParserTest.config("backend: \"identity\"")));
    }

    @Test
    void printsAlignedColumnsAndTheFullReasonOfEveryFailure()
    {
        final ModelTable table = new ModelTable(List.of(
            new ModelTable.Row("add_sub", "1", "add_sub", "none", "1 x CPU", "READY", "", true),
            new ModelTable.Row("broken", "-", "-", "-", "-", "UNAVAILABLE", "model 'broken': no model.onnx", false)));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        table.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals("""
            MODEL    VERSION  PLATFORM/BACKEND  BATCHING  INSTANCES  STATE
            add_sub  1        add_sub           none      1 x CPU    READY
            broken   -        -                 -         -          UNAVAILABLE

              broken: model 'broken': no model.onnx
            """, bytes.toString(StandardCharsets.UTF_8));
        assertEquals(1, table.failures().size());
    }
}
