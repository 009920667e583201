package io.ingot.server.ipc;

import com.google.protobuf.TextFormat;
import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.UUID;

/** Models, cores and options shared by the IPC server tests. */
final class IpcTestSupport
{
    private IpcTestSupport()
    {
    }

    static String uniqueName(final String prefix)
    {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static ModelConfig config(final String pbtxt)
    {
        try
        {
            final ModelConfig.Builder builder = ModelConfig.newBuilder();
            TextFormat.merge(pbtxt, builder);
            return builder.build();
        }
        catch (final TextFormat.ParseException ex)
        {
            throw new IllegalArgumentException(ex);
        }
    }

    /** Triton's {@code simple}: FP32 [16] INPUT0, INPUT1 → OUTPUT0 = sum, OUTPUT1 = difference. */
    static ModelConfig addSub()
    {
        return config("name: 'add_sub' backend: 'add_sub' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] },"
            + "        { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] },"
            + "         { name: 'OUTPUT1' data_type: TYPE_FP32 dims: [16] }]");
    }

    /** add_sub with a batch dimension and dynamic batching: requests of different clients share batches. */
    static ModelConfig addSubBatched()
    {
        return config("name: 'add_sub_batched' backend: 'add_sub' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] },"
            + "        { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] },"
            + "         { name: 'OUTPUT1' data_type: TYPE_FP32 dims: [16] }]"
            + " dynamic_batching { max_queue_delay_microseconds: 200 }");
    }

    /** FP32 identity of any length. */
    static ModelConfig identity()
    {
        return config("name: 'identity' backend: 'identity' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [-1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [-1] }]");
    }

    /** BYTES identity of any length. */
    static ModelConfig identityBytes()
    {
        return config("name: 'identity_bytes' backend: 'identity' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_STRING dims: [-1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_STRING dims: [-1] }]");
    }

    /** An identity that takes {@code micros} per execution, so that requests stay in flight. */
    static ModelConfig slow(final long micros)
    {
        return config("name: 'slow' backend: 'cost' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] }]"
            + " instance_group [{ kind: KIND_CPU count: 2 }]"
            + " parameters { key: 'base_us' value { string_value: '" + micros + "' } }");
    }

    static InferenceCore core(final ModelConfig... configs)
    {
        return core(IdleMode.BLOCKING, configs);
    }

    static InferenceCore core(final IdleMode idle, final ModelConfig... configs)
    {
        final CoreOptions.Builder builder = CoreOptions.builder().idleMode(idle);
        for (final ModelConfig config : configs)
        {
            builder.model(config);
        }
        return InferenceCore.open(builder.build());
    }

    /** Triton's {@code simple_sequence} (built-in): {@code OUTPUT = (INPUT + START) * READY}, INT32 [1]. */
    static ModelConfig simpleSequence()
    {
        return config("name: 'simple_sequence' backend: 'simple_sequence' max_batch_size: 8"
            + " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " sequence_batching { max_sequence_idle_microseconds: 60000000 control_input ["
            + " { name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
            + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] } ] }");
    }

    /** The models every IPC test server serves. */
    static InferenceCore standardCore()
    {
        return core(addSub(), addSubBatched(), identity(), identityBytes(), slow(300_000), simpleSequence());
    }

    /** Small slabs and quick liveness, for tests. */
    static IpcServerOptions.Builder testOptions()
    {
        return IpcServerOptions.builder()
            .maxClients(8)
            .slabBytes(4L << 20)
            .maxInFlight(32)
            .heartbeatInterval(Duration.ofMillis(50))
            // Generous: a client JVM that is starting up on a loaded 2-core machine (CI, or several builds at once)
            // can stall for seconds before its heartbeat thread runs. Dead clients are found by their process
            // probe, not by this timeout, so the tests lose no coverage.
            .livenessTimeout(Duration.ofSeconds(15));
    }

    static void putFloats(final MemorySegment segment, final float[] values)
    {
        for (int i = 0; i < values.length; i++)
        {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, i, values[i]);
        }
    }

    static float[] floats(final MemorySegment segment, final int count)
    {
        final float[] values = new float[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = segment.getAtIndex(ValueLayout.JAVA_FLOAT, i);
        }
        return values;
    }
}
