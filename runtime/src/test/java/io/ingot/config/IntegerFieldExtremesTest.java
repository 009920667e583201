package io.ingot.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Every integer field of Triton's {@code ModelConfig} (found by walking the schema's descriptor, nested messages and
 * map entries included), set to the extremes its type allows, either loads and answers requests without an internal
 * error, or fails at load with a message that names the field. What Triton itself accepts is read from core
 * {@code src/model_config_utils.cc} ({@code ValidateModelConfig} and friends): it bounds few of these fields, so
 * Ingot must behave correctly for the rest, or refuse them at load with a range it states.
 *
 * <p>A failure that does not depend on the value (setting an ensemble step in a model that is not an ensemble fails
 * the same way for the value 1) is accepted as it is: the value added nothing.
 */
class IntegerFieldExtremesTest
{
    private static final String MODEL = "m";
    private static final int REQUESTS = 8;

    /** Valid and served as is; priority levels present so that the level fields are exercised, not refused. */
    private static final ModelConfig BASE = TestModels.recording(MODEL, 8, """
        dynamic_batching {
          priority_levels: 2 default_priority_level: 1
          default_queue_policy { max_queue_size: 64 }
          priority_queue_policy { key: 1 value { max_queue_size: 64 } }
        }""");

    /**
     * Words that Triton's messages use for a field instead of its name (the message texts are Triton's, from
     * model_config_utils.cc; the field is named all the same).
     */
    private static final Map<String, List<String>> WORDED = Map.of(
        "priority_levels", List.of("priority level"),
        "key", List.of("priority level"),
        "gpus", List.of("gpu"),
        "preferred_batch_size", List.of("preferred"),
        "dims", List.of("dimension", "shape"),
        "shape", List.of("reshape"),
        "versions", List.of("version"),
        "num_versions", List.of("version"));

    private static boolean isInteger(final FieldDescriptor field)
    {
        return switch (field.getType())
        {
            case INT32, SINT32, SFIXED32, UINT32, FIXED32, INT64, SINT64, SFIXED64, UINT64, FIXED64 -> true;
            default -> false;
        };
    }

    private static boolean isUnsigned(final FieldDescriptor field)
    {
        return switch (field.getType())
        {
            case UINT32, FIXED32, UINT64, FIXED64 -> true;
            default -> false;
        };
    }

    private static void collect(final Descriptor type, final List<FieldDescriptor> prefix, final Set<Descriptor> open,
        final List<List<FieldDescriptor>> out)
    {
        for (final FieldDescriptor field : type.getFields())
        {
            final List<FieldDescriptor> path = new ArrayList<>(prefix);
            path.add(field);
            if (isInteger(field))
            {
                out.add(path);
            }
            else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !open.contains(field.getMessageType()))
            {
                final Set<Descriptor> deeper = new HashSet<>(open);
                deeper.add(field.getMessageType());
                collect(field.getMessageType(), path, deeper, out);
            }
        }
    }

    /** @return the extremes of a field's type, boxed as protobuf's reflection wants them */
    private static List<Object> extremes(final FieldDescriptor field)
    {
        final boolean wide = field.getJavaType() == FieldDescriptor.JavaType.LONG;
        if (wide)
        {
            return isUnsigned(field)
                ? List.of(0L, -1L /* 2^64-1 */, Long.MIN_VALUE /* 2^63 */, 4_294_967_296L)
                : List.of(0L, Long.MAX_VALUE, Long.MIN_VALUE, -1L);
        }
        return isUnsigned(field)
            ? List.of(0, -1 /* 2^32-1 */, Integer.MIN_VALUE /* 2^31 */)
            : List.of(0, Integer.MAX_VALUE, Integer.MIN_VALUE, -1);
    }

    private static Object one(final FieldDescriptor field)
    {
        return field.getJavaType() == FieldDescriptor.JavaType.LONG ? (Object) 1L : (Object) 1;
    }

    private static String text(final FieldDescriptor field, final Object value)
    {
        final long number = ((Number) value).longValue();
        if (!isUnsigned(field))
        {
            return Long.toString(number);
        }
        return field.getJavaType() == FieldDescriptor.JavaType.LONG ? Long.toUnsignedString(number)
            : Integer.toUnsignedString((int) number);
    }

    private static String dotted(final List<FieldDescriptor> path)
    {
        final List<String> names = new ArrayList<>();
        for (final FieldDescriptor field : path)
        {
            names.add(field.getName());
        }
        return String.join(".", names);
    }

    /** @return {@code root} with the field at {@code path} set (the first element of every repeated step). */
    private static Message with(final Message root, final List<FieldDescriptor> path, final int index,
        final Object value)
    {
        final Message.Builder builder = root.toBuilder();
        final FieldDescriptor field = path.get(index);
        if (index == path.size() - 1)
        {
            if (field.isRepeated())
            {
                builder.clearField(field);
                builder.addRepeatedField(field, value);
            }
            else
            {
                builder.setField(field, value);
            }
            return builder.build();
        }
        if (field.isRepeated())
        {
            final Message first = builder.getRepeatedFieldCount(field) == 0
                ? builder.newBuilderForField(field).build() : (Message) builder.getRepeatedField(field, 0);
            final Message changed = with(first, path, index + 1, value);
            if (builder.getRepeatedFieldCount(field) == 0)
            {
                builder.addRepeatedField(field, changed);
            }
            else
            {
                builder.setRepeatedField(field, 0, changed);
            }
        }
        else
        {
            builder.setField(field, with((Message) builder.getField(field), path, index + 1, value));
        }
        return builder.build();
    }

    /** What loading a configuration and sending it requests came to: a load failure, or problems while serving. */
    private record Outcome(String loadFailure, List<String> servingProblems, int served, List<String> refusals)
    {
    }

    private static Outcome run(final ModelConfig config)
    {
        final RecordingBackend backend = new RecordingBackend();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().model(config).backend(backend).build()))
        {
            if (!core.isModelReady(MODEL, InferenceRequest.DEFAULT_VERSION))
            {
                final String reason = core.repositoryIndex(false).stream().filter(e -> e.name().equals(MODEL))
                    .map(ModelIndexEntry::reason).findFirst().orElse("(no index entry)");
                return new Outcome(reason, List.of(), 0, List.of());
            }
            final boolean batching = core.modelConfig(MODEL, InferenceRequest.DEFAULT_VERSION).getMaxBatchSize() > 0;
            final List<String> problems = new ArrayList<>();
            final List<String> refusals = new ArrayList<>();
            final int served = serve(core, batching, problems, refusals);
            return new Outcome(null, problems, served, refusals);
        }
        catch (final RuntimeException | Error e)
        {
            return new Outcome(null, List.of("opening the core threw " + e), 0, List.of());
        }
    }

    /**
     * Sends a full batch of one-row requests (a preferred batch size of 8 then forms without waiting).
     *
     * @return how many were answered with their own value
     */
    private static int serve(final InferenceCore core, final boolean batching, final List<String> problems,
        final List<String> refusals)
    {
        int served = 0;
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        try (Arena arena = Arena.ofShared())
        {
            for (int tag = 1; tag <= REQUESTS; tag++)
            {
                final MemorySegment data = arena.allocate(4, 4);
                data.set(ValueLayout.JAVA_INT, 0, tag);
                final long[] shape = batching ? new long[] {1, 1} : new long[] {1};
                try
                {
                    futures.add(core.submit(new InferenceRequest(MODEL).id("r" + tag)
                        .addInput("INPUT0", DataType.INT32, shape, data)));
                }
                catch (final InferenceException e)
                {
                    checkCode(problems, refusals, e);
                }
            }
            for (final CompletableFuture<InferenceResponse> future : futures)
            {
                try (InferenceResponse response = future.get(10, TimeUnit.SECONDS))
                {
                    if (!response.isOk())
                    {
                        checkCode(problems, refusals, response.error());
                    }
                    else if (response.output("OUTPUT0").data().get(ValueLayout.JAVA_INT, 0)
                        == Integer.parseInt(response.id().substring(1)))
                    {
                        served++;
                    }
                    else
                    {
                        problems.add("request " + response.id() + " was answered with another request's value");
                    }
                }
                catch (final Exception e)
                {
                    problems.add("no response within 10 s: " + e);
                }
            }
        }
        return served;
    }

    private static void checkCode(final List<String> problems, final List<String> refusals,
        final InferenceException e)
    {
        refusals.add(e.getMessage());
        if (e.code() == ErrorCode.INTERNAL || e.code() == ErrorCode.UNKNOWN)
        {
            problems.add(e.code() + " at request time: " + e.getMessage());
        }
    }

    private static boolean names(final String message, final FieldDescriptor field)
    {
        final String lower = message.toLowerCase(Locale.ROOT);
        final String name = field.getName();
        return lower.contains(name) || lower.contains(name.replace('_', ' '))
            || WORDED.getOrDefault(name, List.of()).stream().anyMatch(lower::contains);
    }

    @Test
    void theWalkReachesNestedAndMapFields()
    {
        final List<List<FieldDescriptor>> fields = new ArrayList<>();
        collect(ModelConfig.getDescriptor(), List.of(), Set.of(ModelConfig.getDescriptor()), fields);
        final List<String> names = fields.stream().map(IntegerFieldExtremesTest::dotted).toList();

        assertTrue(names.contains("max_batch_size"), names.toString());
        assertTrue(names.contains("dynamic_batching.priority_queue_policy.key"), names.toString());
        assertTrue(names.contains("dynamic_batching.priority_queue_policy.value.max_queue_size"), names.toString());
        assertTrue(names.contains("instance_group.count"), names.toString());
        assertTrue(names.contains("model_warmup.inputs.value.dims"), names.toString());
        assertTrue(names.size() >= 40, "integer fields found: " + names.size());
    }

    @Test
    void everyIntegerFieldAtItsExtremesLoadsAndServesOrFailsNamingTheField()
    {
        final List<List<FieldDescriptor>> fields = new ArrayList<>();
        collect(ModelConfig.getDescriptor(), List.of(), Set.of(ModelConfig.getDescriptor()), fields);
        assertTrue(run(BASE).loadFailure() == null, "the base configuration loads: " + run(BASE));

        final List<String> problems = new ArrayList<>();
        for (final List<FieldDescriptor> path : fields)
        {
            final FieldDescriptor field = path.getLast();
            final Outcome benign = run((ModelConfig) with(BASE, path, 0, one(field)));
            for (final Object value : extremes(field))
            {
                final String where = dotted(path) + " = " + text(field, value);
                final Outcome outcome = run((ModelConfig) with(BASE, path, 0, value));
                outcome.servingProblems().forEach(problem -> problems.add(where + ": " + problem));
                if (outcome.loadFailure() == null && outcome.servingProblems().isEmpty() && outcome.served() == 0
                    && benign.served() > 0 && !outcome.refusals().stream().allMatch(r -> names(r, field)))
                {
                    // A request that does not fit the configured value (dims) may be refused, naming it.
                    problems.add(where + ": loaded, then served no request: " + outcome.refusals());
                }
                final String failure = outcome.loadFailure();
                if (failure != null && !failure.equals(benign.loadFailure()) && !names(failure, field))
                {
                    problems.add(where + ": load failed without naming the field: " + failure);
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void tritonsQaPriorityValuesLoadAndServe()
    {
        // Values from Triton's QA (the priority queue tests): every uint64 level is valid.
        final ModelConfig config = TestModels.recording(MODEL, 8, "dynamic_batching { priority_levels:"
            + " 18446744073709551615 default_priority_level: 4294967296"
            + " default_queue_policy { max_queue_size: 4 } }");

        final Outcome outcome = run(config);

        assertEquals(null, outcome.loadFailure());
        assertEquals(List.of(), outcome.servingProblems());
        assertTrue(outcome.served() >= 4, "every request the level's queue admitted is served: " + outcome);
    }
}
