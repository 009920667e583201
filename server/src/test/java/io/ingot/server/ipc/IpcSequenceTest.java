package io.ingot.server.ipc;

import io.ingot.api.InferenceCore;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcRequestFailedException;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequence parameters over the IPC transport, through real shared memory and the real core: the built-in
 * {@code simple_sequence} ({@code (INPUT + START) * READY}) and {@code sequence_accumulator} (a running sum per
 * sequence) with Triton's client-example values, numeric and string correlation IDs, both sequences in flight at
 * once, and Triton's errors for a request without START or without any correlation ID.
 */
class IpcSequenceTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int[] VALUES = {11, 7, 5, 3, 2, 0, 1};
    private static final String CONTROLS = " control_input ["
        + " { name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
        + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] } ]";
    private static final String IO = " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
        + " output [{ name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }]";

    private static InferenceCore core;
    private static IpcServer server;
    private static IpcClient client;

    @BeforeAll
    static void start()
    {
        core = IpcTestSupport.core(IpcTestSupport.simpleSequence(),
            IpcTestSupport.config("name: 'acc' backend: 'sequence_accumulator' max_batch_size: 4" + IO
                + " sequence_batching { max_sequence_idle_microseconds: 10000000" + CONTROLS + " }"
                + " instance_group [{ kind: KIND_CPU count: 2 }]"));
        server = IpcServer.start(core, IpcTestSupport.uniqueName("ipc-sequence"),
            IpcTestSupport.testOptions().maxClients(2).build());
        client = IpcClient.connect(server.name());
    }

    @AfterAll
    static void stop()
    {
        if (client != null)
        {
            client.close();
        }
        if (server != null)
        {
            server.close();
        }
        if (core != null)
        {
            core.close();
        }
    }

    private static IpcTensor value(final int value)
    {
        final IpcTensor tensor = client.allocate(IpcDataType.INT32, 1, 1);
        tensor.segment().set(ValueLayout.JAVA_INT, 0, value);
        return tensor;
    }

    private static int output(final IpcResponse response)
    {
        try (response)
        {
            response.throwIfError();
            return response.output("OUTPUT").segment().get(ValueLayout.JAVA_INT, 0);
        }
    }

    /**
     * Sends two sequences request by request, each pair in flight together; the first with a numeric ID, the second
     * with a string ID. Returns both lists of outputs.
     */
    private static List<List<Integer>> interleaved(final String model, final int[] first, final int[] second)
    {
        final List<Integer> a = new ArrayList<>();
        final List<Integer> b = new ArrayList<>();
        final IpcRequest numeric = new IpcRequest(model);
        final IpcRequest named = new IpcRequest(model).sequence("session-b", false, false);
        for (int i = 0; i < first.length; i++)
        {
            final boolean start = i == 0;
            final boolean end = i == first.length - 1;
            try (IpcTensor x = value(first[i]); IpcTensor y = value(second[i]))
            {
                numeric.clearInputs().sequence(-2L, start, end).addInput("INPUT", x);
                // Only the flags change: the string ID stays encoded in the reused request.
                named.clearInputs().sequenceFlags(start, end).addInput("INPUT", y);
                final long idA = client.submit(numeric);
                final long idB = client.submit(named);
                a.add(output(client.await(idA, WAIT)));
                b.add(output(client.await(idB, WAIT)));
            }
        }
        return List.of(a, b);
    }

    private static int[] sent(final int first, final int sign)
    {
        final int[] values = new int[VALUES.length + 1];
        values[0] = first;
        for (int i = 0; i < VALUES.length; i++)
        {
            values[i + 1] = sign * VALUES[i];
        }
        return values;
    }

    @Test
    void simpleSequenceSeesStartOnlyOnTheFirstRequestOfEachSequence()
    {
        final List<List<Integer>> outputs = interleaved("simple_sequence", sent(0, 1), sent(100, -1));
        assertEquals(List.of(1, 11, 7, 5, 3, 2, 0, 1), outputs.get(0));
        assertEquals(List.of(101, -11, -7, -5, -3, -2, 0, -1), outputs.get(1));
    }

    @Test
    void theAccumulatorKeepsOneSumPerSequenceAndRestartsOnStart()
    {
        for (int round = 0; round < 2; round++)
        {
            final List<List<Integer>> outputs = interleaved("acc", sent(0, 1), sent(100, -1));
            assertEquals(List.of(0, 11, 18, 23, 26, 28, 28, 29), outputs.get(0), "round " + round);
            assertEquals(List.of(100, 89, 82, 77, 74, 72, 72, 71), outputs.get(1), "round " + round);
        }
    }

    @Test
    void aSequenceRequestWithoutStartGetsTritonsError()
    {
        try (IpcTensor x = value(1))
        {
            final long id = client.submit(new IpcRequest("simple_sequence").sequence(4242, false, false)
                .addInput("INPUT", x));
            final IpcRequestFailedException error = assertThrows(IpcRequestFailedException.class,
                () -> client.await(id, WAIT).throwIfError());
            assertEquals(IpcStatus.INVALID_ARG, error.status());
            assertTrue(error.getMessage().contains("inference request for sequence 4242 to model 'simple_sequence'"
                + " must specify the START flag on the first request of the sequence"), error.getMessage());
        }
    }

    @Test
    void aRequestOutsideAnySequenceGetsTritonsCorrelationIdError()
    {
        try (IpcTensor x = value(1))
        {
            final long id = client.submit(new IpcRequest("simple_sequence").addInput("INPUT", x));
            final IpcRequestFailedException error = assertThrows(IpcRequestFailedException.class,
                () -> client.await(id, WAIT).throwIfError());
            assertTrue(error.getMessage().contains("must specify a non-zero or non-empty correlation ID"),
                error.getMessage());
        }
    }
}
