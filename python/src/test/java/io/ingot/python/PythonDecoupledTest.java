package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decoupled Python models ({@code model_transaction_policy { decoupled: true }}), in the style of Triton's repeat and
 * square examples: responses sent through {@code get_response_sender()} reach the caller as the model sends them, from
 * {@code execute} or from threads after it returned, each request ending with the final flag; an error as a response
 * of its own; and what a model does wrong, with Triton's message, while the stub serves on: a response after the
 * final flag, a sender used after its request ended, a sender dropped without the final flag, an {@code execute} that
 * raises; a stub killed while requests are open ends them with the reason and is replaced. {@code is_cancelled()}
 * tells a streaming model that its caller cancelled. An {@code async def execute} of a decoupled model runs on in the
 * background, as in Triton.
 */
class PythonDecoupledTest
{
    /**
     * MODE: 0 counts IN[0] responses from a thread (OUT = i), the i-th after the file named by the request parameter
     * "gate_<i>" exists when there is one; 1 sends a response, the final flag, then a response again; 2 keeps the
     * sender (and sends the final flag); 3 sends on the sender kept by an earlier mode 2; 4 an error response between
     * two responses; 5 drops its sender without the final flag; 6 raises; 7 streams until cancelled; 8 reports what
     * the model caught so far (TEXT); 9 returns a list, which a decoupled model may not; 10 sends a response, then its
     * process is killed.
     */
    private static final String MODEL = """
        import json
        import os
        import threading
        import time

        import numpy as np
        import triton_python_backend_utils as pb_utils


        def out(*values):
            return pb_utils.InferenceResponse([pb_utils.Tensor("OUT", np.array(values, dtype=np.int32))])


        class TritonPythonModel:
            def initialize(self, args):
                self.caught = []
                self.kept = None
                self.threads = []

            def send_guarded(self, sender, response=None, flags=0):
                try:
                    sender.send(response, flags=flags)
                except pb_utils.TritonModelException as error:
                    self.caught.append(str(error))

            def count(self, sender, n, gates):
                for i in range(n):
                    gate = gates.get("gate_%d" % i)
                    while gate is not None and not os.path.exists(gate):
                        time.sleep(0.005)
                    sender.send(out(i))
                sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)

            def until_cancelled(self, sender):
                sent = 0
                while not sender.is_cancelled() and sent < 2000:
                    sender.send(out(sent))
                    sent += 1
                    time.sleep(0.01)
                sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)

            def execute(self, requests):
                for request in requests:
                    mode, n = (int(v) for v in pb_utils.get_input_tensor_by_name(request, "IN").as_numpy())
                    sender = request.get_response_sender()
                    if mode == 0:
                        thread = threading.Thread(target=self.count,
                                                  args=(sender, n, json.loads(request.parameters())))
                        thread.start()
                        self.threads.append(thread)
                    elif mode == 1:
                        sender.send(out(1))
                        sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                        self.send_guarded(sender, out(2))
                    elif mode == 2:
                        self.kept = sender
                        sender.send(out(2), flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                    elif mode == 3:
                        self.send_guarded(self.kept, out(3))
                        sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                    elif mode == 4:
                        sender.send(out(1))
                        sender.send(pb_utils.InferenceResponse(
                            error=pb_utils.TritonError("step 2 failed", pb_utils.TritonError.UNAVAILABLE)))
                        sender.send(out(3), flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                    elif mode == 5:
                        sender.send(out(5))
                    elif mode == 6:
                        sender.send(out(6))
                        raise ValueError("mode 6 raises after one response")
                    elif mode == 7:
                        thread = threading.Thread(target=self.until_cancelled, args=(sender,))
                        thread.start()
                        self.threads.append(thread)
                    elif mode == 8:
                        sender.send(pb_utils.InferenceResponse([pb_utils.Tensor(
                            "TEXT", np.array([json.dumps(self.caught).encode()], dtype=np.object_))]),
                            flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                    elif mode == 9:
                        return [out(9)]
                    elif mode == 10:
                        sender.send(out(10))
                        self.kept = sender
                        threading.Timer(0.05, os.kill, (os.getpid(), 9)).start()
                return None

            def finalize(self):
                for thread in self.threads:
                    thread.join()
        """;

    private static final String CONFIG = """
        name: "streaming"
        backend: "python"
        max_batch_size: 0
        model_transaction_policy { decoupled: true }
        input [ { name: "IN" data_type: TYPE_INT32 dims: [ 2 ] } ]
        output [
          { name: "OUT" data_type: TYPE_INT32 dims: [ -1 ] },
          { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] }
        ]
        """;

    /** A decoupled model whose execute is a coroutine: Triton runs it on in the background, so does Ingot. */
    private static final String ASYNC_MODEL = """
        import asyncio

        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            async def execute(self, requests):
                for request in requests:
                    sender = request.get_response_sender()
                    n = int(pb_utils.get_input_tensor_by_name(request, "IN").as_numpy()[1])
                    for i in range(n):
                        await asyncio.sleep(0.01)
                        sender.send(pb_utils.InferenceResponse([pb_utils.Tensor("OUT", np.array([i], np.int32))]))
                    sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                return None
        """;

    @TempDir
    static Path repository;
    @TempDir
    static Path gates;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonDecoupledTest.class);
        PythonTests.writeModel(repository, "streaming", CONFIG, MODEL);
        PythonTests.writeModel(repository, "async_streaming", CONFIG.replace("\"streaming\"", "\"async_streaming\""),
            ASYNC_MODEL);
        core = PythonTests.open(repository, "streaming", "async_streaming");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void responsesSentFromAThreadAfterExecuteReachTheCallerAsTheyAreSent() throws Exception
    {
        // The model sends response i only once the file gate_i exists, which this test creates only after it has
        // received response i - 1: so every response must reach the caller before the model sends the next.
        final InferenceRequest request = request(0, 3);
        for (int i = 1; i < 3; i++)
        {
            request.parameter("gate_" + i, gates.resolve("gate-" + i).toString());
        }
        final StreamCollector stream = submit(request);
        for (int i = 0; i < 3; i++)
        {
            final StreamCollector.Event event = stream.next();
            assertFalse(event.last());
            assertArrayEquals(new int[] {i}, event.ints("OUT"));
            if (i < 2)
            {
                Files.createFile(gates.resolve("gate-" + (i + 1)));
            }
        }
        final StreamCollector.Event last = stream.next();
        assertTrue(last.last() && last.empty(), "the model sent the final flag alone");
    }

    @Test
    void manyRequestsStreamAtOnceFromOneInstance() throws Exception
    {
        final List<StreamCollector> streams = new ArrayList<>();
        for (int r = 0; r < 8; r++)
        {
            streams.add(submit(request(0, 5 + r)));
        }
        for (int r = 0; r < streams.size(); r++)
        {
            final List<StreamCollector.Event> events = streams.get(r).all();
            assertEquals(5 + r + 1, events.size(), "request " + r);
            for (int i = 0; i < 5 + r; i++)
            {
                assertArrayEquals(new int[] {i}, events.get(i).ints("OUT"), "request " + r + " response " + i);
            }
        }
    }

    @Test
    void anAsyncExecuteOfADecoupledModelRunsOnInTheBackground() throws Exception
    {
        final List<StreamCollector> streams = new ArrayList<>();
        for (int r = 0; r < 3; r++)
        {
            final StreamCollector stream = new StreamCollector();
            core.submit(new InferenceRequest("async_streaming").addInput("IN", DataType.INT32, new long[] {2},
                MemorySegment.ofArray(new int[] {0, 3})), stream);
            streams.add(stream);
        }
        for (final StreamCollector stream : streams)
        {
            final List<StreamCollector.Event> events = stream.all();
            assertEquals(4, events.size());
            for (int i = 0; i < 3; i++)
            {
                assertArrayEquals(new int[] {i}, events.get(i).ints("OUT"));
            }
        }
    }

    @Test
    void anErrorIsAResponseOfItsOwnAndTheStreamGoesOn() throws Exception
    {
        final List<StreamCollector.Event> events = submit(request(4, 0)).all();
        assertEquals(3, events.size());
        assertArrayEquals(new int[] {1}, events.get(0).ints("OUT"));
        assertEquals(ErrorCode.UNAVAILABLE, events.get(1).code());
        assertEquals("step 2 failed", events.get(1).error());
        assertFalse(events.get(1).last());
        assertArrayEquals(new int[] {3}, events.get(2).ints("OUT"));
        assertTrue(events.get(2).last());
    }

    @Test
    void misuseRaisesTritonsErrorsInTheModelWhichServesOn() throws Exception
    {
        final List<StreamCollector.Event> afterFinal = submit(request(1, 0)).all();
        assertEquals(2, afterFinal.size(), "a response, then the final flag; nothing after it");
        submit(request(2, 0)).all();
        final List<StreamCollector.Event> oldSender = submit(request(3, 0)).all();
        assertEquals(1, oldSender.size());
        final String caught = submit(request(8, 0)).next().texts().get("TEXT").getFirst();
        assertTrue(caught.contains("\"Unable to send response. Response sender has been closed.\", "
            + "\"Unable to send response. Response sender has been closed.\""), caught);
    }

    @Test
    void aSenderDroppedWithoutTheFinalFlagEndsItsRequestWithAnError() throws Exception
    {
        final List<StreamCollector.Event> events = submit(request(5, 0)).all();
        assertArrayEquals(new int[] {5}, events.getFirst().ints("OUT"));
        final StreamCollector.Event last = events.getLast();
        assertTrue(last.last());
        assertEquals(ErrorCode.INTERNAL, last.code());
        assertTrue(last.error().contains("python model 'streaming' dropped the response sender of request 'dropping' "
            + "without sending TRITONSERVER_RESPONSE_COMPLETE_FINAL"), last.error());
    }

    @Test
    void anExecuteThatRaisesEndsItsRequestsWithTritonsMessageAfterWhatTheyHad() throws Exception
    {
        final List<StreamCollector.Event> events = submit(request(6, 0)).all();
        assertEquals(2, events.size());
        assertArrayEquals(new int[] {6}, events.getFirst().ints("OUT"));
        assertTrue(events.getLast().error().contains("Failed to process the request(s) for model 'streaming', "
            + "message: ValueError: mode 6 raises after one response"), events.getLast().error());
        final List<StreamCollector.Event> returned = submit(request(9, 0)).all();
        assertTrue(returned.getLast().error().contains("Python model 'streaming' is using the decoupled mode and the "
            + "execute function must return None."), returned.getLast().error());
        assertEquals(3, submit(request(4, 0)).all().size(), "the stub serves on");
    }

    @Test
    void aStubKilledWhileARequestIsOpenEndsItWithTheReasonAndIsReplaced() throws Exception
    {
        final List<StreamCollector.Event> events = submit(request(10, 0)).all();
        assertArrayEquals(new int[] {10}, events.getFirst().ints("OUT"));
        final StreamCollector.Event last = events.getLast();
        assertEquals(ErrorCode.INTERNAL, last.code());
        assertTrue(last.error().contains("python model 'streaming' instance 'streaming_0"), last.error());
        assertTrue(last.error().contains("was killed by signal 9 (SIGKILL) while serving 1 open request"),
            last.error());
        assertEquals(3, submit(request(4, 0)).all().size(), "a new stub serves the next request");
    }

    @Test
    void isCancelledTellsAStreamingModelItsCallerCancelled() throws Exception
    {
        final InferenceRequest request = request(7, 0);
        final StreamCollector stream = submit(request);
        for (int i = 0; i < 3; i++)
        {
            assertArrayEquals(new int[] {i}, stream.next().ints("OUT"));
        }
        request.cancel();
        final List<StreamCollector.Event> rest = stream.all();
        final StreamCollector.Event last = rest.getLast();
        assertTrue(rest.size() < 100, "the model stopped soon after the cancellation: " + rest.size());
        assertNull(last.ints("OUT"), "the model ended the stream with the final flag");
    }

    private static StreamCollector submit(final InferenceRequest request)
    {
        final StreamCollector stream = new StreamCollector();
        core.submit(request, stream);
        return stream;
    }

    private static InferenceRequest request(final int mode, final int n)
    {
        return new InferenceRequest("streaming").id(mode == 5 ? "dropping" : "r" + mode)
            .addInput("IN", DataType.INT32, new long[] {2}, MemorySegment.ofArray(new int[] {mode, n}));
    }
}
