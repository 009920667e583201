package io.ingot.server.grpc;

import io.grpc.CallOptions;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.ingot.server.access.RestrictedApis;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelStreamInferResponse;
import io.ingot.protocol.grpc.RepositoryIndexRequest;
import io.ingot.protocol.grpc.ServerLiveRequest;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gRPC frontend against bad input (issue 14, defects 5 and 7) and its restrictions. Before: every unparseable
 * message was answered UNKNOWN and logged with a stack trace (38.7 MB of log in 10 s from one client), and a
 * 20,000-character model name turned the error into RESOURCE_EXHAUSTED on the client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcHardeningTest
{
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>()
    {
        @Override
        public InputStream stream(final byte[] value)
        {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(final InputStream stream)
        {
            try
            {
                return stream.readAllBytes();
            }
            catch (final IOException failure)
            {
                throw new UncheckedIOException(failure);
            }
        }
    };

    private final ServingFixture server = new ServingFixture(options -> options.withRestrictions(
        RestrictedApis.parseHttp(List.of("model-repository,shared-memory:admin-key=secret")),
        RestrictedApis.parseGrpc(List.of("model-repository,shared-memory:admin-key=secret"))));

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static MethodDescriptor<byte[], byte[]> raw(final String method, final MethodDescriptor.MethodType type)
    {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type)
            .setFullMethodName("inference.GRPCInferenceService/" + method)
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    }

    @Test
    void unparseableMessagesAreInvalidArgumentAndLoggedOncePerIntervalWithoutStackTraces()
    {
        final List<LogRecord> records = new CopyOnWriteArrayList<>();
        final Handler capture = new Handler()
        {
            @Override
            public void publish(final LogRecord record)
            {
                records.add(record);
            }

            @Override
            public void flush()
            {
            }

            @Override
            public void close()
            {
            }
        };
        final Logger logger = Logger.getLogger(GrpcFrontend.class.getName());
        logger.addHandler(capture);
        try
        {
            for (int i = 0; i < 50; i++)
            {
                final StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                    () -> ClientCalls.blockingUnaryCall(server.channel(), raw("ModelInfer",
                        MethodDescriptor.MethodType.UNARY), CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS),
                        new byte[] {(byte) 0xff}));
                assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode());
                assertTrue(refused.getStatus().getDescription().startsWith("unable to parse the ModelInferRequest "
                    + "message of inference.GRPCInferenceService/ModelInfer: "), refused.getStatus().getDescription());
            }
        }
        finally
        {
            logger.removeHandler(capture);
        }
        assertTrue(records.size() <= 2, records.size() + " log records for 50 bad messages");
        for (final LogRecord record : records)
        {
            assertNull(record.getThrown(), "a stack trace was logged: " + record.getMessage());
        }
        // The service is unharmed.
        assertTrue(server.grpc().serverLive(ServerLiveRequest.getDefaultInstance()).getLive());
    }

    @Test
    void anUnparseableMessageInAStreamEndsItWithInvalidArgument() throws Exception
    {
        final CompletableFuture<Status> ended = new CompletableFuture<>();
        final io.grpc.ClientCall<byte[], byte[]> call = server.channel().newCall(raw("ModelStreamInfer",
            MethodDescriptor.MethodType.BIDI_STREAMING), CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS));
        call.start(new io.grpc.ClientCall.Listener<>()
        {
            @Override
            public void onClose(final Status status, final Metadata trailers)
            {
                ended.complete(status);
            }
        }, new Metadata());
        call.request(1);
        call.sendMessage(new byte[] {0x0a, 0x7f, 0x01});
        call.halfClose();
        final Status status = ended.get(30, TimeUnit.SECONDS);
        assertEquals(Status.Code.INVALID_ARGUMENT, status.getCode(), String.valueOf(status));
        assertTrue(status.getDescription().contains("ModelStreamInfer"), status.getDescription());
    }

    @Test
    void aHugeModelNameIsCutInTheErrorInsteadOfExhaustingTheClient()
    {
        final String name = "m".repeat(20_000);
        final StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class,
            () -> server.grpc().modelInfer(ModelInferRequest.newBuilder().setModelName(name).build()));
        assertTrue(unknown.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED, unknown.getStatus().toString());
        final String description = unknown.getStatus().getDescription();
        assertTrue(description.length() < 2200 && description.contains("characters)"), description.length() + ": "
            + description.substring(0, 200));

        final CompletableFuture<ModelStreamInferResponse> streamed = new CompletableFuture<>();
        final StreamObserver<ModelInferRequest> stream = server.grpcAsync().modelStreamInfer(new StreamObserver<>()
        {
            @Override
            public void onNext(final ModelStreamInferResponse response)
            {
                streamed.complete(response);
            }

            @Override
            public void onError(final Throwable failure)
            {
                streamed.completeExceptionally(failure);
            }

            @Override
            public void onCompleted()
            {
            }
        });
        stream.onNext(ModelInferRequest.newBuilder().setModelName(name).build());
        stream.onCompleted();
        assertTrue(streamed.join().getErrorMessage().length() < 2200);
    }

    @Test
    void restrictedProtocolsNeedTheirMetadataAsInTriton()
    {
        final StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
            () -> server.grpc().repositoryIndex(RepositoryIndexRequest.getDefaultInstance()));
        assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode());
        assertEquals("This protocol is restricted, expecting header 'triton-grpc-protocol-admin-key'",
            refused.getStatus().getDescription());

        final Metadata wrong = new Metadata();
        wrong.put(Metadata.Key.of("triton-grpc-protocol-admin-key", Metadata.ASCII_STRING_MARSHALLER), "guess");
        assertEquals(Status.Code.UNAVAILABLE, assertThrows(StatusRuntimeException.class,
            () -> server.grpc().withInterceptors(MetadataUtils.newAttachHeadersInterceptor(wrong))
                .repositoryIndex(RepositoryIndexRequest.getDefaultInstance())).getStatus().getCode());

        final Metadata key = new Metadata();
        key.put(Metadata.Key.of("triton-grpc-protocol-admin-key", Metadata.ASCII_STRING_MARSHALLER), "secret");
        final GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub admin = server.grpc()
            .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(key));
        assertTrue(admin.repositoryIndex(RepositoryIndexRequest.getDefaultInstance()).getModelsCount() > 0);
        // Unrestricted categories stay open.
        assertTrue(server.grpc().serverLive(ServerLiveRequest.getDefaultInstance()).getLive());
    }

    @Test
    void restrictedHttpApisAnswer403AsTriton()
    {
        final var refused = server.post("/v2/repository/index", "{}");
        assertEquals(403, refused.statusCode());
        assertEquals("{\"error\":\"This API is restricted, expecting header 'admin-key'\"}",
            new String(refused.body(), java.nio.charset.StandardCharsets.UTF_8));
        // Triton checks the restriction before the method: a GET is refused the same way.
        assertEquals(403, server.get("/v2/systemsharedmemory/region/r/register").statusCode());
        final var allowed = server.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.httpUrl()
            + "/v2/repository/index")).header("admin-key", "secret")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build());
        assertEquals(200, allowed.statusCode());
        assertEquals(200, server.get("/v2/health/ready").statusCode());
    }
}
