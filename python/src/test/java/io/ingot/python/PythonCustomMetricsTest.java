package io.ingot.python;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.metrics.Metric;
import io.ingot.metrics.MetricFamily;
import io.ingot.metrics.MetricKind;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Custom metrics of Python models ({@code pb_utils.MetricFamily}, {@code Metric}), in the style of Triton's
 * custom_metrics example: a counter, a gauge and a histogram the model defines in {@code initialize} and updates in
 * {@code execute} land in the core's registry (which the server's /metrics exports), shared by the model's instances;
 * what the model does wrong raises Triton's errors in the model, which serves on (a family redefined with another
 * kind, labels that are not strings, an operation its kind lacks, an invalid name); and the model's metrics leave the
 * registry when it unloads.
 */
class PythonCustomMetricsTest
{
    /** X[0] is observed and set; MODE 1 answers the errors the model catches in TEXT. */
    private static final String MODEL = """
        import json

        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def initialize(self, args):
                name = args["model_name"]
                # As in Triton, a family must outlive its metrics: deleting it clears them.
                self.families = [
                    pb_utils.MetricFamily(name="metered_requests_total", description="requests seen",
                                          kind=pb_utils.MetricFamily.COUNTER),
                    pb_utils.MetricFamily(name="metered_last_value", description="the last X",
                                          kind=pb_utils.MetricFamily.GAUGE),
                    pb_utils.MetricFamily(name="metered_values", description="every X",
                                          kind=pb_utils.MetricFamily.HISTOGRAM)]
                self.requests = self.families[0].Metric(labels={"model": name})
                self.last = self.families[1].Metric(labels={"model": name})
                self.values = self.families[2].Metric(labels={"model": name}, buckets=[1.0, 10.0, 100.0])

            def caught(self):
                messages = []
                attempts = [
                    lambda: pb_utils.MetricFamily(name="metered_requests_total", description="again",
                                                  kind=pb_utils.MetricFamily.GAUGE),
                    lambda: pb_utils.MetricFamily(name="metered_last_value", description="x",
                                                  kind=pb_utils.MetricFamily.GAUGE).Metric(labels={"model": 7}),
                    lambda: self.requests.set(3),
                    lambda: self.values.value(),
                    lambda: pb_utils.MetricFamily(name="9 bad name", description="x",
                                                  kind=pb_utils.MetricFamily.COUNTER),
                ]
                for attempt in attempts:
                    try:
                        attempt()
                        messages.append("no error")
                    except pb_utils.TritonModelException as error:
                        messages.append(str(error))
                return messages

            def execute(self, requests):
                responses = []
                for request in requests:
                    x = float(pb_utils.get_input_tensor_by_name(request, "X").as_numpy()[0])
                    mode = int(pb_utils.get_input_tensor_by_name(request, "MODE").as_numpy()[0])
                    text = json.dumps(self.caught() if mode == 1 else [])
                    self.requests.increment(1)
                    self.last.set(x)
                    self.values.observe(x)
                    responses.append(pb_utils.InferenceResponse([
                        pb_utils.Tensor("COUNT", np.array([self.requests.value()], dtype=np.float64)),
                        pb_utils.Tensor("TEXT", np.array([text.encode()], dtype=np.object_))]))
                return responses
        """;

    private static final String CONFIG = """
        name: "metered"
        backend: "python"
        max_batch_size: 0
        input [
          { name: "X" data_type: TYPE_FP32 dims: [ 1 ] },
          { name: "MODE" data_type: TYPE_INT32 dims: [ 1 ] }
        ]
        output [
          { name: "COUNT" data_type: TYPE_FP64 dims: [ 1 ] },
          { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] }
        ]
        instance_group [ { count: 2 kind: KIND_CPU } ]
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonCustomMetricsTest.class);
        PythonTests.writeModel(repository, "metered", CONFIG, MODEL);
        core = PythonTests.open(repository, "metered");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void aModelsMetricsAreInTheRegistryAndItsInstancesShareThem() throws Exception
    {
        final double before = value(family("metered_requests_total", MetricKind.COUNTER));
        for (final float x : new float[] {0.5f, 5, 50, 500})
        {
            TestModels.await(core.submit(request(x, 0))).throwIfError().close();
        }
        final MetricFamily requests = family("metered_requests_total", MetricKind.COUNTER);
        assertEquals("requests seen", requests.description());
        assertEquals(Map.of("model", "metered"), requests.metrics().getFirst().labels());
        assertEquals(before + 4, value(requests), "one counter for both instances");
        assertEquals(500.0, value(family("metered_last_value", MetricKind.GAUGE)));
        final Metric.HistogramSnapshot values = family("metered_values", MetricKind.HISTOGRAM).metrics().getFirst()
            .histogram();
        assertArrayEquals(new double[] {1, 10, 100}, values.bounds());
        assertEquals(values.count(), values.cumulative()[3]);
        assertTrue(values.count() >= 4 && values.sum() >= 555.5, values.toString());
    }

    @Test
    void misuseRaisesTritonsErrorsInTheModelWhichServesOn() throws Exception
    {
        final JsonArray caught;
        try (InferenceResponse response = TestModels.await(core.submit(request(1, 1))).throwIfError())
        {
            caught = JsonParser.parseString(PythonTests.firstString(response, "TEXT")).getAsJsonArray();
        }
        assertEquals("Error when creating MetricFamily: Family name already exists with different type",
            caught.get(0).getAsString());
        assertTrue(caught.get(1).getAsString().startsWith("Error when creating Metric: attempt to access JSON "
            + "non-string as string (label 'model' of metric family 'metered_last_value' is 7"), caught.toString());
        assertEquals("Failed to set metric value: TRITONSERVER_METRIC_KIND_COUNTER does not support Set",
            caught.get(2).getAsString());
        assertEquals("Failed to get metric value: TRITONSERVER_METRIC_KIND_HISTOGRAM does not support Value",
            caught.get(3).getAsString());
        assertEquals("Error when creating MetricFamily: Invalid metric name", caught.get(4).getAsString());
        assertEquals(MetricKind.COUNTER, family("metered_requests_total", MetricKind.COUNTER).kind());
        TestModels.await(core.submit(request(2, 0))).throwIfError().close();
    }

    @Test
    void theMetricsLeaveTheRegistryWhenTheModelUnloads() throws Exception
    {
        try (InferenceCore own = PythonTests.open(repository, "metered"))
        {
            TestModels.await(own.submit(request(3, 0))).throwIfError().close();
            assertTrue(find(own, "metered_values").isPresent());
            own.unloadModel("metered");
            assertTrue(own.customMetrics().families().isEmpty(), () -> "left: " + own.customMetrics().families()
                .stream().map(MetricFamily::name).toList());
        }
    }

    private static MetricFamily family(final String name, final MetricKind kind)
    {
        final MetricFamily family = find(core, name).orElseThrow(() -> new AssertionError(name + " is not registered"));
        assertEquals(kind, family.kind());
        return family;
    }

    private static Optional<MetricFamily> find(final InferenceCore in, final String name)
    {
        return in.customMetrics().families().stream().filter(f -> f.name().equals(name)).findFirst();
    }

    private static double value(final MetricFamily family)
    {
        return family.metrics().getFirst().value();
    }

    private static InferenceRequest request(final float x, final int mode)
    {
        return new InferenceRequest("metered").addInput("X", DataType.FP32, new long[] {1}, PythonTests.floats(x))
            .addInput("MODE", DataType.INT32, new long[] {1}, MemorySegment.ofArray(new int[] {mode}));
    }
}
