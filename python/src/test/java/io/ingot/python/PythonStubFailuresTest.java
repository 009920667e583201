package io.ingot.python;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stubs that die or hang: a stub killed with SIGKILL in the middle of a batch, one that overruns the execute timeout,
 * one whose heartbeat stops (the process is stopped with SIGSTOP), and one that dies between batches. The batch in
 * flight fails with a message saying what happened, the stub is replaced, and the model, its other instances, and
 * every other model keep serving.
 */
class PythonStubFailuresTest
{
    /** Sleeps INPUT0[0] seconds (or stops its own process for -1), then answers its process id. */
    private static final String MODEL = """
        import os
        import signal
        import time

        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                responses = []
                for request in requests:
                    seconds = float(pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()[0])
                    if seconds < 0:
                        os.kill(os.getpid(), signal.SIGSTOP)
                    time.sleep(seconds)
                    pid = np.array([os.getpid()], dtype=np.int64)
                    responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", pid)]))
                return responses
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonStubFailuresTest.class);
        write("sleeper", "");
        write("pair", "", 2);
        write("hanger", "parameters { key: \"INGOT_EXECUTE_TIMEOUT_SECONDS\" value { string_value: \"1\" } }");
        write("stopper", "parameters { key: \"INGOT_STUB_TIMEOUT_SECONDS\" value { string_value: \"3\" } }");
        core = InferenceCore.open(PythonTests.options(repository, "sleeper", "hanger", "stopper", "pair",
            "add_sub_python")
            .modelRepository(PythonTests.examples()).build());
        PythonTests.assertReady(core, "sleeper", "hanger", "stopper", "pair", "add_sub_python");
    }

    private static void write(final String name, final String parameters) throws Exception
    {
        write(name, parameters, 1);
    }

    private static void write(final String name, final String parameters, final int instances) throws Exception
    {
        PythonTests.writeModel(repository, name, "name: \"" + name + "\" backend: \"python\" max_batch_size: 0"
            + " input [ { name: \"INPUT0\" data_type: TYPE_FP32 dims: [ 1 ] } ]"
            + " output [ { name: \"OUTPUT0\" data_type: TYPE_INT64 dims: [ 1 ] } ]"
            + " instance_group [ { count: " + instances + " kind: KIND_CPU } ] " + parameters, MODEL);
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void aStubKilledMidBatchFailsThatBatchAndIsReplaced() throws Exception
    {
        final long first = pid("sleeper");
        final CompletableFuture<InferenceResponse> inFlight = core.submit(request("sleeper", 20));
        waitUntilExecuting("sleeper");
        assertTrue(ProcessHandle.of(first).orElseThrow().destroyForcibly(), "SIGKILL to the stub " + first);

        final String message = errorOf(inFlight);
        assertTrue(message.contains("python model 'sleeper' instance 'sleeper_0_0': the stub process (pid " + first
            + ") was killed by signal 9 (SIGKILL) while executing a batch of 1 request"), message);
        assertTrue(message.contains("a new stub is being started"), message);
        assertServesAddSub();
        final long second = pid("sleeper");
        assertNotEquals(first, second, "a new stub serves the model");
    }

    @Test
    void theOtherInstanceServesWhileOneStubIsReplaced() throws Exception
    {
        final CompletableFuture<InferenceResponse> slow = core.submit(request("pair", 20));
        waitUntilExecuting("pair");
        final long survivor = pid("pair");
        final long victim = ProcessHandle.current().descendants()
            .filter(process -> process.info().commandLine().orElse("").contains(" pair 1 pair_"))
            .mapToLong(ProcessHandle::pid).filter(pid -> pid != survivor).findFirst().orElseThrow();
        assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly());
        assertTrue(errorOf(slow).contains("the stub process (pid " + victim + ") was killed by signal 9"));
        for (int i = 0; i < 5; i++)
        {
            pid("pair");
        }
    }

    @Test
    void aStubThatOverrunsTheExecuteTimeoutIsKilledAndReplaced() throws Exception
    {
        final long first = pid("hanger");
        final long start = System.nanoTime();
        final String message = errorOf(core.submit(request("hanger", 60)));
        final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 20, "the batch fails after about 1 s, not after the 60 s sleep: " + seconds + " s");
        assertTrue(message.contains("python model 'hanger' instance 'hanger_0_0': the stub did not finish executing a "
            + "batch of 1 request (INGOT_EXECUTE_TIMEOUT_SECONDS is 1 s) in time; the stub (pid " + first
            + ") was killed"), message);
        assertFalse(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false), "the hung stub is gone");
        assertNotEquals(first, pid("hanger"));
    }

    @Test
    void aStubWhoseHeartbeatStopsIsUnhealthyAndReplaced() throws Exception
    {
        final long first = pid("stopper");
        final String message = errorOf(core.submit(request("stopper", -1)));
        assertTrue(message.contains("Stub process 'stopper_0_0' is not healthy: its heartbeat did not move for 3 s "
            + "(INGOT_STUB_TIMEOUT_SECONDS) while executing a batch of 1 request; the stub (pid " + first
            + ") was killed"), message);
        assertNotEquals(first, pid("stopper"));
    }

    @Test
    void aStubThatDiedBetweenBatchesIsReplacedBeforeTheNextBatch() throws Exception
    {
        final long first = pid("sleeper");
        final ProcessHandle stub = ProcessHandle.of(first).orElseThrow();
        stub.destroyForcibly();
        stub.onExit().get(10, TimeUnit.SECONDS);
        final long second = pid("sleeper");
        assertNotEquals(first, second, "the next batch ran on a new stub, and did not fail");
    }

    private static long pid(final String model)
    {
        try (InferenceResponse response = TestModels.await(core.submit(request(model, 0))).throwIfError())
        {
            return response.output("OUTPUT0").data().get(ValueLayout.JAVA_LONG, 0);
        }
    }

    private static void waitUntilExecuting(final String model) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (core.modelStatistics(model, -1).getFirst().pendingRequests() > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        Thread.sleep(300);
    }

    private static void assertServesAddSub()
    {
        final float[] ones = new float[16];
        Arrays.fill(ones, 1);
        try (InferenceResponse response = TestModels.await(core.submit(PythonTests.addSub("add_sub_python",
            new long[] {1, 16}, ones, ones))).throwIfError())
        {
            final float[] twos = new float[16];
            Arrays.fill(twos, 2);
            assertArrayEquals(twos, PythonTests.floatsOf(response, "OUTPUT0"));
        }
    }

    private static String errorOf(final CompletableFuture<InferenceResponse> future)
    {
        try (InferenceResponse response = TestModels.await(future))
        {
            assertFalse(response.isOk(), "the request must fail");
            return response.error().getMessage();
        }
    }

    private static InferenceRequest request(final String model, final float seconds)
    {
        return new InferenceRequest(model).addInput("INPUT0", DataType.FP32, new long[] {1},
            PythonTests.floats(seconds));
    }
}
